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

/**
 * Whole seconds left until `iso`, or null once past (or no date).
 *
 * @example
 * secondsLeft("2026-11-22T10:00:05Z", Date.parse("2026-11-22T10:00:00Z")) // 5
 */
export function secondsLeft(iso: string | null, now: number): number | null {
  if (!iso) return null;
  const left = Math.floor((Date.parse(iso) - now) / 1000);
  return left > 0 ? left : null;
}

/**
 * `m:ss` (or `h:mm:ss`) until `iso` in the locale's digits (`Intl.NumberFormat`); null once past.
 *
 * @example
 * countdown("2026-11-22T10:14:05Z", Date.parse("2026-11-22T10:00:00Z")) // "14:05"
 * countdown("2026-11-22T10:14:05Z", Date.parse("2026-11-22T10:00:00Z"), "fa") // "۱۴:۰۵"
 */
export function countdown(iso: string | null, now: number, locale = "en"): string | null {
  const left = secondsLeft(iso, now);
  if (left === null) return null;
  const plain = new Intl.NumberFormat(locale, { useGrouping: false });
  const two = new Intl.NumberFormat(locale, { useGrouping: false, minimumIntegerDigits: 2 });
  const s = two.format(left % 60);
  const m = Math.floor(left / 60) % 60;
  const h = Math.floor(left / 3600);
  return h > 0 ? `${plain.format(h)}:${two.format(m)}:${s}` : `${plain.format(m)}:${s}`;
}

/**
 * Whole minutes left until `iso`, rounded up (what a screen reader hears); null once past.
 *
 * @example
 * minutesLeft("2026-11-22T10:14:05Z", Date.parse("2026-11-22T10:00:00Z")) // 15
 */
export function minutesLeft(iso: string | null, now: number): number | null {
  const left = secondsLeft(iso, now);
  return left === null ? null : Math.ceil(left / 60);
}
