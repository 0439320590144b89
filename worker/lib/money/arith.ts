/**
 * @module
 * Arithmetic on decimal strings. Inputs are any numeric text `toDecimal` accepts; outputs
 * are canonical decimal strings. Addition, subtraction and multiplication are exact (big.js
 * keeps every digit); only division rounds, and only where and how the caller says.
 */
import { Big, ZERO } from "./big.ts";
import { fromBig, parseBig } from "./canonical.ts";
import { type Rounding, roundingMode } from "./rounding-mode.ts";

/**
 * Exact sum.
 * @example add("0.1", "0.2"); // "0.3"
 */
export function add(a: string, b: string): string {
  return fromBig(parseBig(a).plus(parseBig(b)));
}

/**
 * Exact difference `a - b`.
 * @example sub("1", "0.000000000000000001"); // "0.999999999999999999"
 */
export function sub(a: string, b: string): string {
  return fromBig(parseBig(a).minus(parseBig(b)));
}

/**
 * Exact product (no rounding: 18-decimal amounts times rates keep every digit).
 * @example mul("1.5", "0.005"); // "0.0075"
 */
export function mul(a: string, b: string): string {
  return fromBig(parseBig(a).times(parseBig(b)));
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
  const divisor = parseBig(b);
  if (divisor.eq(ZERO)) throw new RangeError("division by zero");
  const dividend = parseBig(a);
  const negative = dividend.lt(ZERO) !== divisor.lt(ZERO) && !dividend.eq(ZERO);
  // big.js rounds the quotient with Big.DP/Big.RM, taking the discarded remainder into account,
  // so one division at exactly `dp` places is correctly rounded. Synchronous: no interleaving.
  Big.DP = dp;
  Big.RM = roundingMode(rounding, negative);
  return fromBig(dividend.div(divisor));
}

/**
 * Compares numerically: -1, 0 or 1.
 * @example cmp("1.50", "1.5"); // 0
 */
export function cmp(a: string, b: string): -1 | 0 | 1 {
  return parseBig(a).cmp(parseBig(b)) as -1 | 0 | 1;
}

/**
 * True when the value is zero (`"0"`, `"0.000"`, `"-0"`).
 * @example isZero("0.000"); // true
 */
export function isZero(a: string): boolean {
  return parseBig(a).eq(ZERO);
}

/**
 * True when the value is strictly greater than zero.
 * @example isPositive("0.000001"); // true
 */
export function isPositive(a: string): boolean {
  return parseBig(a).gt(ZERO);
}

/**
 * The smaller value, canonical.
 * @example min("2", "10"); // "2"
 */
export function min(a: string, b: string): string {
  const x = parseBig(a);
  const y = parseBig(b);
  return fromBig(x.lte(y) ? x : y);
}

/**
 * The larger value, canonical.
 * @example max("0", sub("1", "2")); // "0"
 */
export function max(a: string, b: string): string {
  const x = parseBig(a);
  const y = parseBig(b);
  return fromBig(x.gte(y) ? x : y);
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
