/**
 * @module
 * Rounding directions and their big.js modes.
 *
 * `"down"` means toward −∞ (floor) and `"up"` toward +∞ (ceiling), so for every sign
 * `round(x, "down") ≤ x ≤ round(x, "up")`. big.js' own `roundDown`/`roundUp` are toward/away
 * from zero, hence the swap for negative values.
 */
import { Big } from "./big.ts";

/** A rounding direction; there is no implicit default anywhere in the money module. */
export type Rounding = "down" | "up" | "half-even";

/**
 * The big.js rounding mode that rounds a value of the given sign in the stated direction.
 * @example roundingMode("down", true); // Big.roundUp (away from zero = toward −∞)
 */
export function roundingMode(rounding: Rounding, negative: boolean): 0 | 2 | 3 {
  switch (rounding) {
    case "half-even":
      return Big.roundHalfEven;
    case "down":
      return negative ? Big.roundUp : Big.roundDown;
    case "up":
      return negative ? Big.roundDown : Big.roundUp;
    default:
      throw new TypeError(`unknown rounding ${String(rounding)}`);
  }
}
