/**
 * @module decimal
 * Exact decimal arithmetic for the sandbox. Owns a private big.js constructor (so its
 * configuration never leaks into other code in the process) and the rounding helpers every
 * amount goes through. No amount is ever a JavaScript float.
 *
 * Invariants:
 * - `Dec` is strict: it takes strings (and bigints) only, and `valueOf`/`toNumber` refuse to
 *   make a lossy float. Write literals as strings: `new Dec("0")`, `x.lte("0")`.
 * - Numerals are bounded before big.js sees them (`MAX_NUMERAL_LENGTH`, `MAX_EXPONENT`), so
 *   `1e999999999` is rejected instead of being expanded into a billion-digit string.
 * - Rounding is by sign, like the real service's rounding as we model it: `roundDown` is
 *   **toward zero** and `roundUp` **away from zero**. Every amount they see in the sandbox is
 *   non-negative, where that is the same as floor / ceiling. (The worker's own money module
 *   rounds "down" toward −∞; the two only differ on negative values, which never occur here.)
 */
import Big from "big.js";

/** The sandbox's own big.js constructor: 40 decimal places for division, half-up by default. */
export const Dec: Big.BigConstructor = Big();
Dec.DP = 40;
Dec.RM = 1;
Dec.strict = true;
// Never switch toString to exponent notation; toFixed() is used for output anyway.
Dec.NE = -1_000_000;
Dec.PE = 1_000_000;

export type Decimal = Big.Big;

/** Longest numeral accepted (JSON number source or decimal string): far beyond any amount. */
export const MAX_NUMERAL_LENGTH = 100;
/** Largest |exponent| accepted in a JSON numeral (`1e100` is already absurd as money). */
export const MAX_EXPONENT = 100;

const DECIMAL_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]([+-]?\d+))?$/;
const PLAIN_STRING = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * True when numeral text is small enough to handle: at most `MAX_NUMERAL_LENGTH` characters
 * and an exponent of at most `MAX_EXPONENT` either way. Says nothing about the syntax.
 * @example
 * numeralInRange("1e999999999"); // false
 * numeralInRange("12.5"); // true
 */
export function numeralInRange(text: string): boolean {
  if (text.length > MAX_NUMERAL_LENGTH) return false;
  const exponent = /[eE]([+-]?\d+)$/.exec(text)?.[1];
  // At most 100 characters, so the exponent's digits parse exactly.
  return exponent === undefined || Math.abs(Number.parseInt(exponent, 10)) <= MAX_EXPONENT;
}

/**
 * Parses the source text of a JSON number (may carry an exponent) into an exact decimal;
 * null when malformed or out of range (`numeralInRange`).
 * @example
 * parseNumberText("1e-7")?.toFixed(); // "0.0000001"
 * parseNumberText("1e999999999"); // null
 */
export function parseNumberText(text: string): Decimal | null {
  return numeralInRange(text) && DECIMAL_TEXT.test(text) ? new Dec(text) : null;
}

/**
 * Parses a decimal sent as a JSON string: plain notation only ("12.5", not "1e3"), at most
 * `MAX_NUMERAL_LENGTH` characters.
 * @example
 * parseDecimalString("12.50")?.toFixed(); // "12.5"
 */
export function parseDecimalString(text: string): Decimal | null {
  return numeralInRange(text) && PLAIN_STRING.test(text) ? new Dec(text) : null;
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
 * Rounds away from zero at `dp` places (= toward +infinity for the non-negative amounts it
 * is used on: never under-charges a payer).
 * @example
 * plain(roundUp(new Dec("0.0000001"), 6)); // "0.000001"
 */
export function roundUp(x: Decimal, dp: number): Decimal {
  return x.round(dp, 3);
}

/**
 * Rounds toward zero at `dp` places (= floor for the non-negative amounts it is used on).
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
  return floor.times(b).lt(a) ? floor.plus(unit(dp)) : floor;
}

/**
 * The smallest positive amount at `dp` places.
 * @example
 * plain(unit(6)); // "0.000001"
 */
export function unit(dp: number): Decimal {
  return new Dec("1").div(new Dec("10").pow(dp));
}

/**
 * Type guard for sandbox decimals.
 * @example
 * isDecimal(new Dec("1")); // true
 */
export function isDecimal(x: unknown): x is Decimal {
  return x instanceof Dec;
}
