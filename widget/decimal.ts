/**
 * @module
 * Exact comparison of the worker's amounts. Amounts arrive as non-negative decimal strings
 * (`"2.5"`, `"0.000000000000000001"`): read as floating point they could compare wrongly (18
 * decimals do not fit a double), and the widget stays too small for a decimal library. Two
 * such strings compare exactly as digits: integer parts without leading zeros by length, then
 * digit by digit with the fractions padded to one length.
 */

/**
 * -1, 0 or 1 as `a` is less than, equal to or greater than `b` (non-negative decimal strings).
 *
 * @example
 * compareDecimal("10", "9.99") // 1
 * compareDecimal("2.50", "2.5") // 0
 */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const [ai = "", af = ""] = a.split(".");
  const [bi = "", bf = ""] = b.split(".");
  const x = ai.replace(/^0+/, "");
  const y = bi.replace(/^0+/, "");
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  const n = Math.max(af.length, bf.length);
  // Same length: string order is numeric order.
  const p = x + af.padEnd(n, "0");
  const q = y + bf.padEnd(n, "0");
  return p < q ? -1 : p > q ? 1 : 0;
}

/**
 * The larger of two amounts (`b` may be absent).
 *
 * @example
 * maxDecimal("2.5", "1") // "2.5"
 */
export function maxDecimal(a: string, b: string | null): string {
  return b !== null && compareDecimal(b, a) > 0 ? b : a;
}
