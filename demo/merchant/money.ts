/**
 * @module
 * Exact fiat money for the shop: amounts are decimal strings with two decimals (USD, EUR) and
 * all arithmetic is on integer cents (`bigint`), never on floating-point numbers.
 */

/** Currencies the demo shop sells in; both have two decimal places. */
export const SHOP_CURRENCIES = ["USD", "EUR"] as const;
export type ShopCurrency = (typeof SHOP_CURRENCIES)[number];

const TWO_DECIMALS = /^(0|[1-9]\d*)\.(\d{2})$/;

/**
 * Parses `"24.90"` into cents (`2490n`). Only plain two-decimal strings are accepted.
 *
 * @example
 * toCents("24.90"); // 2490n
 */
export function toCents(amount: string): bigint {
  const match = TWO_DECIMALS.exec(amount);
  if (!match) throw new Error(`not a two-decimal amount: ${amount}`);
  return BigInt(match[1]!) * 100n + BigInt(match[2]!);
}

/**
 * Formats cents as a decimal string.
 *
 * @example
 * fromCents(2490n); // "24.90"
 */
export function fromCents(cents: bigint): string {
  if (cents < 0n) throw new Error("negative amount");
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

/**
 * A human label such as `$24.90` or `€24.90`.
 *
 * @example
 * label("24.90", "EUR"); // "€24.90"
 */
export function label(amount: string, currency: string): string {
  const symbol = currency === "USD" ? "$" : currency === "EUR" ? "€" : `${currency} `;
  return `${symbol}${amount}`;
}
