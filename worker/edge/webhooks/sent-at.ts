/**
 * @module
 * The envelope's `timestamp`: when the service sent a delivery, the only clock it gives. It is
 * part of the body, so the HMAC over the raw bytes (`signature.ts`) covers it: nobody without
 * the signing key can move a delivery in time.
 *
 * Only one unambiguous form is read: ISO-8601 date and time with seconds and an explicit zone
 * (`Z` or `±hh:mm`), e.g. `2026-11-23T19:11:15.123Z`. Everything else is "no clock" (null) and
 * the delivery falls back to the rule without timestamps (`core/converge/delivery.ts`):
 * - a bare number (`"1763925075"`): seconds or milliseconds? The unit is a guess;
 * - an ISO time without a zone: local time of an unknown place;
 * - a stamp more than `MAX_AHEAD_MS` after the worker's own clock: a skewed service clock,
 *   which, once recorded as the newest acknowledged time, would supersede every later delivery.
 *
 * The result is epoch milliseconds. Digits past the millisecond are dropped: truncation keeps
 * order (a < b never becomes a > b), it can only make two close stamps equal, and equal stamps
 * supersede nothing, so it errs on the side of today's rule.
 */

/** How far ahead of the worker's clock a stamp may be and still be believed. */
export const MAX_AHEAD_MS = 5 * 60_000;

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Epoch milliseconds of a delivery's `timestamp`, or null when it is missing, garbled,
 * ambiguous or implausibly far in the future (`now` is the worker's clock, epoch ms).
 *
 * @example
 * deliverySentAt("2026-11-23T19:11:15.123Z", Date.now()); // 1795461075123
 * deliverySentAt("1795461075", Date.now()); // null: seconds or milliseconds?
 */
export function deliverySentAt(timestamp: unknown, now: number): number | null {
  if (typeof timestamp !== "string") return null;
  const m = ISO_INSTANT.exec(timestamp);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const frac = m[7];
  const zone = m[8] as string;
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
    return null;
  const ms = Number((frac ?? "").padEnd(3, "0").slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 31 February over to March: a date that does not exist is garbled.
  if (new Date(local).getUTCDate() !== day) return null;
  let offset = 0;
  if (zone !== "Z") {
    const [oh, om] = zone.slice(1).split(":").map(Number) as [number, number];
    if (oh > 23 || om > 59) return null;
    offset = (zone.startsWith("-") ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const sentAt = local - offset;
  return sentAt > now + MAX_AHEAD_MS ? null : sentAt;
}
