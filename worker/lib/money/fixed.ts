/**
 * @module
 * Exact decimal values as a BigInt coefficient and a count of decimal places: the arithmetic
 * under the money module's decimal strings (it replaced big.js in the worker, whose bundle
 * budget it did not fit; `test/unit/money-fixed.test.ts` runs every operation against big.js).
 *
 * Invariants:
 * - a value is `units × 10^-scale` with `scale` a non-negative integer; no floats anywhere;
 * - addition, subtraction and multiplication are exact; only `divide` and `rescale` round,
 *   and only in the direction the caller names (`rounding-mode.ts`);
 * - zero has no sign (a BigInt has no −0), so nothing here can print "-0".
 */
import { divideRounded, type Rounding } from "./rounding-mode.ts";

/** `units × 10^-scale`. */
export interface Fixed {
  readonly units: bigint;
  readonly scale: number;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/**
 * The value of a numeral the caller has already matched: sign, integer digits, fraction
 * digits, exponent (`canonical.ts` checks the grammar and bounds the exponent).
 * @example fixedOf("-", "1", "5", "-2"); // { units: -15n, scale: 3 } (−0.015)
 */
export function fixedOf(sign: string, int: string, frac = "", exponent = "0"): Fixed {
  const digits = BigInt(int + frac);
  const scale = frac.length - Number(exponent);
  const units = scale < 0 ? digits * pow10(-scale) : digits;
  return { units: sign ? -units : units, scale: Math.max(scale, 0) };
}

/** Both coefficients at the larger scale. */
function aligned(a: Fixed, b: Fixed): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

/** Exact `a + b`. @example plus(x, y) */
export function plus(a: Fixed, b: Fixed): Fixed {
  const [x, y, scale] = aligned(a, b);
  return { units: x + y, scale };
}

/** Exact `a × b`. @example times(x, y) */
export function times(a: Fixed, b: Fixed): Fixed {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** `-a`. @example negated(x) */
export function negated(a: Fixed): Fixed {
  return { units: -a.units, scale: a.scale };
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`. @example compare(x, y) */
export function compare(a: Fixed, b: Fixed): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `a / b` at exactly `dp` places, rounded in the stated direction from the exact quotient.
 * The caller refuses a zero divisor.
 * @example divide(one, three, 6, "down"); // 0.333333
 */
export function divide(a: Fixed, b: Fixed, dp: number, rounding: Rounding): Fixed {
  // a/b × 10^dp = (a.units × 10^(dp + b.scale)) / (b.units × 10^a.scale)
  let n = a.units * pow10(dp + b.scale);
  let d = b.units * pow10(a.scale);
  if (d < 0n) [n, d] = [-n, -d];
  return { units: divideRounded(n, d, rounding), scale: dp };
}

/**
 * `a` at `dp` places: unchanged when it has no more, else rounded in the stated direction.
 * @example rescale(fixedOf("", "1", "235"), 2, "half-even"); // 1.24
 */
export function rescale(a: Fixed, dp: number, rounding: Rounding): Fixed {
  // Divides by 1 when nothing is dropped, so an unknown direction is refused either way.
  const dropped = Math.max(a.scale - dp, 0);
  return { units: divideRounded(a.units, pow10(dropped), rounding), scale: a.scale - dropped };
}

/**
 * Plain notation: at least `dp` decimal places, with every trailing zero beyond them dropped
 * (`dp` 0: canonical form, `"1.5"`, `"0"`, `"-0.25"`).
 * @example plainText({ units: 150n, scale: 2 }, 2); // "1.50"
 */
export function plainText(a: Fixed, dp = 0): string {
  const negative = a.units < 0n;
  const digits = (negative ? -a.units : a.units).toString().padStart(a.scale + 1, "0");
  const cut = digits.length - a.scale;
  const frac = digits.slice(cut).replace(/0+$/, "").padEnd(dp, "0");
  return `${negative ? "-" : ""}${digits.slice(0, cut)}${frac ? `.${frac}` : ""}`;
}
