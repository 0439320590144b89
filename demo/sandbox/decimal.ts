/**
 * @module decimal
 * Exact decimal arithmetic for the sandbox. Owns a private big.js constructor (so its
 * configuration never leaks into other code in the process) and the rounding helpers every
 * amount goes through. No amount is ever a JavaScript float.
 */
import Big from "big.js";

/** The sandbox's own big.js constructor: 40 decimal places for division, half-up by default. */
export const Dec: Big.BigConstructor = Big();
Dec.DP = 40;
Dec.RM = 1;
// Never switch toString to exponent notation; toFixed() is used for output anyway.
Dec.NE = -1_000_000;
Dec.PE = 1_000_000;

export type Decimal = Big.Big;

const DECIMAL_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const PLAIN_STRING = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * Parses the source text of a JSON number (may carry an exponent) into an exact decimal.
 * @example
 * parseNumberText("1e-7")?.toFixed(); // "0.0000001"
 */
export function parseNumberText(text: string): Decimal | null {
  return DECIMAL_TEXT.test(text) ? new Dec(text) : null;
}

/**
 * Parses a decimal sent as a JSON string: plain notation only ("12.5", not "1e3").
 * @example
 * parseDecimalString("12.50")?.toFixed(); // "12.5"
 */
export function parseDecimalString(text: string): Decimal | null {
  return PLAIN_STRING.test(text) ? new Dec(text) : null;
}

/**
 * Plain decimal notation without exponent or trailing zeros.
 * @example
 * plain(new Dec("1.50")); // "1.5"
 */
export function plain(x: Decimal): string {
  const s = x.toFixed();
  return s === "-0" ? "0" : s;
}

/**
 * Number of significant decimal places of a value (trailing zeros do not count).
 * @example
 * decimalPlaces(new Dec("10.250")); // 2
 */
export function decimalPlaces(x: Decimal): number {
  const s = plain(x);
  const dot = s.indexOf(".");
  return dot < 0 ? 0 : s.length - dot - 1;
}

/**
 * Rounds towards +infinity at `dp` places (never under-charges a payer).
 * @example
 * plain(roundUp(new Dec("0.0000001"), 6)); // "0.000001"
 */
export function roundUp(x: Decimal, dp: number): Decimal {
  return x.round(dp, 3);
}

/**
 * Rounds towards zero at `dp` places.
 * @example
 * plain(roundDown(new Dec("1.999"), 2)); // "1.99"
 */
export function roundDown(x: Decimal, dp: number): Decimal {
  return x.round(dp, 0);
}

/**
 * Rounds half away from zero at `dp` places (used for USD display values).
 * @example
 * plain(roundHalfUp(new Dec("1.005"), 2)); // "1.01"
 */
export function roundHalfUp(x: Decimal, dp: number): Decimal {
  return x.round(dp, 1);
}

/**
 * Exact ceiling of a ÷ b at `dp` places, independent of the division precision: the floor is
 * taken and bumped by one unit when it does not cover `a`.
 * @example
 * plain(divRoundUp(new Dec(10), new Dec(3), 2)); // "3.34"
 */
export function divRoundUp(a: Decimal, b: Decimal, dp: number): Decimal {
  const floor = roundDown(a.div(b), dp);
  return floor.times(b).lt(a) ? floor.plus(new Dec(1).div(new Dec(10).pow(dp))) : floor;
}

/**
 * The smallest positive amount at `dp` places.
 * @example
 * plain(unit(6)); // "0.000001"
 */
export function unit(dp: number): Decimal {
  return new Dec(1).div(new Dec(10).pow(dp));
}

/**
 * Type guard for sandbox decimals.
 * @example
 * isDecimal(new Dec(1)); // true
 */
export function isDecimal(x: unknown): x is Decimal {
  return x instanceof Dec;
}
