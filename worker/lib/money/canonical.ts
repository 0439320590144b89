/**
 * @module
 * Canonical decimal strings: the only representation of an amount inside the worker.
 *
 * Canonical form (what `toDecimal` returns and every function here emits):
 * - plain notation, never an exponent: `"1e-7"` → `"0.0000001"`, `"1E+3"` → `"1000"`;
 * - no leading zeros in the integer part, at least one digit before the point: `"007.5"` → `"7.5"`;
 * - no trailing zeros in the fraction and no bare point: `"49.90"` → `"49.9"`, `"100.0"` → `"100"`;
 *   so two amounts are numerically equal **iff** their canonical strings are equal;
 * - no negative zero: `"-0"`, `"-0.000"` → `"0"`; a minus sign only on non-zero values.
 * Display precision (e.g. `"49.90"`) is a presentation concern: see `formatFixed`.
 */
import { type Fixed, fixedOf, plainText } from "./fixed.ts";

/** Longest numeric text accepted at all (JSON source text of one number, or an input). */
const MAX_SOURCE_LENGTH = 200;
/** Largest |exponent| accepted, so `"1e999999999"` cannot expand into a giant string. */
const MAX_EXPONENT = 100;
/** JSON numeral grammar, plus leading zeros in the integer part (harmless, some inputs have them). */
const NUMERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Plain non-negative decimal, for validating inputs (`isDecimalString`). */
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;
/** Cap for `isDecimalString`: far more than any 18-decimal amount needs. */
const MAX_DECIMAL_INPUT_LENGTH = 64;

/**
 * Parses numeric text (JSON numeral source, or a decimal input) into an exact value.
 * Throws `TypeError` on anything that is not a number written in decimal.
 * @example plainText(parseFixed("1e-7")); // "0.0000001"
 */
export function parseFixed(source: string): Fixed {
  if (typeof source !== "string" || source.length > MAX_SOURCE_LENGTH) {
    throw new TypeError("not a decimal number");
  }
  const m = NUMERAL.exec(source);
  if (!m) throw new TypeError(`not a decimal number: ${JSON.stringify(source.slice(0, 40))}`);
  if (m[4] !== undefined && Math.abs(Number.parseInt(m[4], 10)) > MAX_EXPONENT) {
    throw new RangeError("decimal exponent out of range");
  }
  return fixedOf(m[1] as string, m[2] as string, m[3], m[4]);
}

/**
 * Normalises numeric source text into a canonical decimal string; rejects non-numeric text.
 *
 * @example
 * toDecimal("1e-7"); // "0.0000001"
 * toDecimal("49.90"); // "49.9"
 * toDecimal("-0"); // "0"
 * toDecimal("abc"); // throws TypeError
 */
export function toDecimal(source: string): string {
  return plainText(parseFixed(source));
}

/**
 * True for a plain non-negative decimal such as `"49.90"` or `"0.000001"` (no sign, no
 * exponent, at most 64 characters). Use it to validate amounts coming from outside.
 *
 * @example
 * isDecimalString("49.90"); // true
 * isDecimalString("-1"); // false
 * isDecimalString("1e3"); // false
 */
export function isDecimalString(s: unknown): s is string {
  return typeof s === "string" && s.length <= MAX_DECIMAL_INPUT_LENGTH && PLAIN_DECIMAL.test(s);
}
