/**
 * @module
 * Arithmetic on decimal strings. Inputs are any numeric text `toDecimal` accepts; outputs
 * are canonical decimal strings. Addition, subtraction and multiplication are exact (every
 * digit kept, `fixed.ts`); only division rounds, and only where and how the caller says.
 */
import { parseFixed } from "./canonical.ts";
import { compare, divide, negated, plainText, plus, times } from "./fixed.ts";
import type { Rounding } from "./rounding-mode.ts";

/**
 * Exact sum.
 * @example add("0.1", "0.2"); // "0.3"
 */
export function add(a: string, b: string): string {
  return plainText(plus(parseFixed(a), parseFixed(b)));
}

/**
 * Exact difference `a - b`.
 * @example sub("1", "0.000000000000000001"); // "0.999999999999999999"
 */
export function sub(a: string, b: string): string {
  return plainText(plus(parseFixed(a), negated(parseFixed(b))));
}

/**
 * Exact product (no rounding: 18-decimal amounts times rates keep every digit).
 * @example mul("1.5", "0.005"); // "0.0075"
 */
export function mul(a: string, b: string): string {
  return plainText(times(parseFixed(a), parseFixed(b)));
}

/**
 * Quotient `a / b` rounded to `dp` decimal places in the stated direction
 * (`"down"` toward −∞, `"up"` toward +∞, `"half-even"`). Throws on division by zero.
 *
 * @example
 * div("1", "3", 6, "down"); // "0.333333"
 * div("1", "3", 6, "up"); // "0.333334"
 */
export function div(a: string, b: string, dp: number, rounding: Rounding): string {
  assertDp(dp);
  const divisor = parseFixed(b);
  if (divisor.units === 0n) throw new RangeError("division by zero");
  // One division at exactly `dp` places, rounded from the exact quotient.
  return plainText(divide(parseFixed(a), divisor, dp, rounding));
}

/**
 * Compares numerically: -1, 0 or 1.
 * @example cmp("1.50", "1.5"); // 0
 */
export function cmp(a: string, b: string): -1 | 0 | 1 {
  return compare(parseFixed(a), parseFixed(b));
}

/**
 * True when the value is zero (`"0"`, `"0.000"`, `"-0"`).
 * @example isZero("0.000"); // true
 */
export function isZero(a: string): boolean {
  return parseFixed(a).units === 0n;
}

/**
 * True when the value is strictly greater than zero.
 * @example isPositive("0.000001"); // true
 */
export function isPositive(a: string): boolean {
  return parseFixed(a).units > 0n;
}

/**
 * The smaller value, canonical.
 * @example min("2", "10"); // "2"
 */
export function min(a: string, b: string): string {
  const x = parseFixed(a);
  const y = parseFixed(b);
  return plainText(compare(x, y) <= 0 ? x : y);
}

/**
 * The larger value, canonical.
 * @example max("0", sub("1", "2")); // "0"
 */
export function max(a: string, b: string): string {
  const x = parseFixed(a);
  const y = parseFixed(b);
  return plainText(compare(x, y) >= 0 ? x : y);
}

/**
 * Decimal places must be a small non-negative integer (tokens use at most 18).
 * @example assertDp(18); // ok; assertDp(-1) throws RangeError
 */
export function assertDp(dp: number): void {
  if (!Number.isInteger(dp) || dp < 0 || dp > 60) {
    throw new RangeError(`decimal places must be an integer 0..60, got ${dp}`);
  }
}
