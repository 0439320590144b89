/**
 * @module
 * When the worker reads a followed upstream object again (reconciliation), as pure functions.
 *
 * Rules (README "Convergence"):
 * - after a read that changed something, the next comes `FIRST_READ_MS` later; after each
 *   unchanged read the gap doubles, up to `MAX_READ_MS` (5 min);
 * - while a shopper watches (an open SSE stream), the gap is at most `WATCHED_READ_MS`, so a
 *   change made at the service shows in the widget within about 10 s plus one read, < 15 s;
 * - a 429 from the service pushes the next read past its `msBeforeNext`, whatever the above;
 * - reading stops when the object is final for the worker, or at its `keepUntil` (expiry +
 *   `LATE_PAYMENT_MS`, so money that arrives late is still seen).
 */

/** Gap after a read that changed something (and the first gap of a new object). */
export const FIRST_READ_MS = 15_000;
/** Longest gap between two reads of an object nobody watches. */
export const MAX_READ_MS = 300_000;
/** Longest gap while a shopper watches. */
export const WATCHED_READ_MS = 10_000;
/** How long after its expiry an object is still read, for late payments. */
export const LATE_PAYMENT_MS = 24 * 3_600_000;
/** A webhook whose refetch was older than it announced: read again this soon. */
export const CATCH_UP_MS = 2_000;

/**
 * The gap after a read: reset on change, else doubled up to the cap.
 *
 * @example
 * nextGap(15_000, false); // 30_000
 * nextGap(300_000, false); // 300_000
 * nextGap(120_000, true); // 15_000
 */
export function nextGap(previous: number, changed: boolean): number {
  return changed ? FIRST_READ_MS : Math.min(Math.max(previous, FIRST_READ_MS / 2) * 2, MAX_READ_MS);
}

/**
 * When to read next, or null to stop reading.
 *
 * @example
 * nextReadAt({ now: 0, gap: 300_000, watched: true, keepUntil: null }); // 10_000
 * nextReadAt({ now: 0, gap: 15_000, watched: false, keepUntil: null, notBefore: 60_000 }); // 60_000
 */
export function nextReadAt(input: {
  now: number;
  gap: number;
  watched: boolean;
  keepUntil: number | null;
  /** The service's 429 hint, as an absolute time. */
  notBefore?: number;
}): number | null {
  const { now, gap, watched, keepUntil } = input;
  if (keepUntil !== null && now >= keepUntil) return null;
  const at = now + (watched ? Math.min(gap, WATCHED_READ_MS) : gap);
  return Math.max(at, input.notBefore ?? 0);
}
