/**
 * @module
 * Decimal places: counting, checking, rounding in a stated direction, fixed-point formatting.
 * Nothing here ever rounds unless a direction is given.
 */
import { assertDp } from "./arith.ts";
import { parseFixed } from "./canonical.ts";
import { plainText, rescale } from "./fixed.ts";
import type { Rounding } from "./rounding-mode.ts";

/**
 * Number of significant decimal places (trailing zeros do not count).
 * @example
 * decimalPlacesOf("1.50"); // 1
 * decimalPlacesOf("1e-7"); // 7
 */
export function decimalPlacesOf(s: string): number {
  const canonical = plainText(parseFixed(s));
  const point = canonical.indexOf(".");
  return point < 0 ? 0 : canonical.length - point - 1;
}

/**
 * True when the value can be written with at most `dp` decimal places without rounding.
 * @example
 * fitsDecimalPlaces("49.90", 2); // true
 * fitsDecimalPlaces("0.001", 2); // false
 */
export function fitsDecimalPlaces(s: string, dp: number): boolean {
  assertDp(dp);
  return decimalPlacesOf(s) <= dp;
}

/**
 * Rounds to `dp` places in the stated direction (`"down"` toward −∞, `"up"` toward +∞).
 * The result is canonical (trailing zeros dropped).
 *
 * @example
 * roundDecimal("1.234", 2, "up"); // "1.24"
 * roundDecimal("1.235", 2, "half-even"); // "1.24"
 */
export function roundDecimal(s: string, dp: number, rounding: Rounding): string {
  assertDp(dp);
  return plainText(rescale(parseFixed(s), dp, rounding));
}

/**
 * Writes the value with exactly `dp` decimal places. Throws `RangeError` when that would need
 * rounding, unless a direction is given.
 *
 * @example
 * formatFixed("49.9", 2); // "49.90"
 * formatFixed("0.123", 2); // throws RangeError
 * formatFixed("0.123", 2, "up"); // "0.13"
 */
export function formatFixed(s: string, dp: number, rounding?: Rounding): string {
  assertDp(dp);
  let value = parseFixed(s);
  if (decimalPlacesOf(s) > dp) {
    if (rounding === undefined) {
      throw new RangeError(`${plainText(value)} has more than ${dp} decimal places`);
    }
    value = rescale(value, dp, rounding);
  }
  // Zero has no sign here, so a value that rounded to zero prints "0.00", never "-0.00".
  return plainText(value, dp);
}
