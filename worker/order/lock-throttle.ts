/**
 * @module
 * The per-checkout throttle of currency locks: at most `LOCKS_PER_MINUTE` upstream lock calls
 * in any 60 s window, counted in the order object's own SQLite (table `lock_calls`).
 *
 * Why in the object and not the rate-limit binding: the order object already serialises every
 * lock of its checkout, so an exact sliding window costs one indexed SQL count and no extra
 * hop, survives the object being evicted or restarted (an in-memory counter would reset), and
 * is exact, where the binding is per location and eventually consistent. Locks that do not
 * call the service (the currency already locked) are not counted.
 */

/** Upstream lock calls one checkout may make per minute. */
export const LOCKS_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

/** DDL of the throttle's table (part of the order schema). */
export const LOCK_THROTTLE_SCHEMA = `
CREATE TABLE IF NOT EXISTS lock_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL
);
`;

type Row = Record<string, SqlStorageValue>;

/**
 * Takes one lock slot at `now`, or says in how many whole seconds the next one frees up.
 *
 * @example
 * const slot = takeLockSlot(sql, Date.now());
 * if (!slot.ok) return failure(429, "rate_limited", "…", slot.retryAfter);
 */
export function takeLockSlot(
  sql: SqlStorage,
  now: number,
): { ok: true } | { ok: false; retryAfter: number } {
  sql.exec("DELETE FROM lock_calls WHERE at <= ?", now - WINDOW_MS);
  const rows = sql.exec<Row>("SELECT at FROM lock_calls ORDER BY at").toArray();
  if (rows.length >= LOCKS_PER_MINUTE) {
    const oldest = Number(rows[0]?.at ?? now);
    return { ok: false, retryAfter: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
  }
  sql.exec("INSERT INTO lock_calls (at) VALUES (?)", now);
  return { ok: true };
}
