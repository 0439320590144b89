/**
 * @module
 * Exact money in the browser: decimal strings in, decimal strings out, integer (BigInt)
 * arithmetic in between. The shop's totals here are previews; the backend recomputes them.
 */

/** "24.90" → 2490n */
export function toCents(amount) {
  const match = /^(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`not a two-decimal amount: ${amount}`);
  return BigInt(match[1]) * 100n + BigInt(match[2]);
}

/** 2490n → "24.90" */
export function fromCents(cents) {
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

/** "24.90", "EUR" → "€24.90" */
export function label(amount, currency) {
  const symbol = currency === "USD" ? "$" : currency === "EUR" ? "€" : `${currency} `;
  return `${symbol}${amount}`;
}

/** Half of a decimal string, rounded down at its own precision: "0.00123" → "0.00061". */
export function halfOf(decimal) {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal ?? "");
  if (!match) return "";
  const fraction = match[2] ?? "";
  const units = BigInt(match[1] + fraction) / 2n;
  if (!fraction) return units.toString();
  const digits = units.toString().padStart(fraction.length + 1, "0");
  return `${digits.slice(0, -fraction.length)}.${digits.slice(-fraction.length)}`;
}
