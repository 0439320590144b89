/**
 * @module
 * Amounts for display. The worker sends decimal strings; they reach `Intl.NumberFormat` as
 * strings, which formats them exactly (no float on the way), with the currency's decimals.
 */

/**
 * A fiat amount in the shopper's locale.
 *
 * @example
 * formatFiat("49.90", "USD", 2, "de") // "49,90 $"
 */
export function formatFiat(
  amount: string,
  currency: string,
  decimals: number,
  locale: string,
): string {
  const format = new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return format.format(amount as unknown as number);
}

/**
 * A crypto amount in the shopper's locale, every digit kept (up to the currency's decimals).
 *
 * @example
 * formatCrypto("0.000000000000000001", 18, "en") // "0.000000000000000001"
 */
export function formatCrypto(amount: string, decimals: number, locale: string): string {
  // Never fewer fraction digits than the string carries: display must not round (Intl's cap is 100).
  const given = amount.split(".")[1]?.length ?? 0;
  const format = new Intl.NumberFormat(locale, {
    maximumFractionDigits: Math.min(Math.max(decimals, given), 100),
    useGrouping: true,
  });
  return format.format(amount as unknown as number);
}

/** `mm:ss` (or `h:mm:ss`) until `iso`; null once past. */
export function countdown(iso: string | null, now: number): string | null {
  if (!iso) return null;
  const left = Math.floor((Date.parse(iso) - now) / 1000);
  if (!(left > 0)) return null;
  const s = String(left % 60).padStart(2, "0");
  const m = Math.floor(left / 60) % 60;
  const h = Math.floor(left / 3600);
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
