/**
 * @module
 * Rounding directions, and the one integer division that applies them.
 *
 * `"down"` means toward −∞ (floor) and `"up"` toward +∞ (ceiling), so for every sign
 * `round(x, "down") ≤ x ≤ round(x, "up")`; `"half-even"` goes to the nearer neighbour, a tie
 * to the even one.
 */

/** A rounding direction; there is no implicit default anywhere in the money module. */
export type Rounding = "down" | "up" | "half-even";

/**
 * `n / d` as an integer, rounded in the stated direction (`d` positive).
 * @example divideRounded(-7n, 2n, "down"); // -4n
 */
export function divideRounded(n: bigint, d: bigint, rounding: Rounding): bigint {
  let q = n / d; // toward zero
  const r = n - q * d;
  const below = r < 0n; // the exact quotient is below q
  switch (rounding) {
    case "down":
      return below ? q - 1n : q;
    case "up":
      return r > 0n ? q + 1n : q;
    case "half-even": {
      if (r === 0n) return q;
      const twice = (below ? -r : r) * 2n;
      if (twice > d || (twice === d && q % 2n !== 0n)) q += below ? -1n : 1n;
      return q;
    }
    default:
      throw new TypeError(`unknown rounding ${String(rounding)}`);
  }
}
