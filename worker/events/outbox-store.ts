/**
 * @module
 * The outbox table: notifications written in the same transaction as the effect they report,
 * then delivered by the alarm. At-least-once: a row is marked delivered only after a 2xx.
 */
import type { Logger } from "../http/log.ts";
import { backoffMs, MAX_ATTEMPTS, type Notification, postNotification } from "./outbox.ts";

type Row = Record<string, SqlStorageValue>;

/** Adds a notification to the outbox, due now. */
export function enqueue(sql: SqlStorage, note: Notification, now: number): void {
  sql.exec(
    "INSERT INTO outbox (id, type, body, next_at, created_at) VALUES (?, ?, ?, ?, ?)",
    note.id,
    note.type,
    JSON.stringify(note),
    now,
    note.createdAt,
  );
}

/**
 * Delivers every due row once; returns when the alarm should fire next (or null).
 * Without a merchant URL, rows are marked `skipped` (nothing to deliver to).
 *
 * `now` decides which rows are due and their next retry; each signature carries the time of
 * its own send (the merchant checks it against a tolerance, and earlier sends of the same run
 * may take up to their timeout each).
 */
export async function deliverOutbox(
  sql: SqlStorage,
  options: { url: string | null; secret: string; now: number; log?: Logger },
): Promise<number | null> {
  const due = sql
    .exec<Row>(
      "SELECT id, body, attempts FROM outbox WHERE delivered_at IS NULL AND attempts < ? AND next_at <= ? ORDER BY created_at, rowid",
      MAX_ATTEMPTS,
      options.now,
    )
    .toArray();
  for (const row of due) {
    const id = String(row.id);
    if (!options.url) {
      sql.exec(
        "UPDATE outbox SET delivered_at = ?, last_status = 'skipped' WHERE id = ?",
        new Date(options.now).toISOString(),
        id,
      );
      continue;
    }
    const result = await postNotification(
      options.url,
      String(row.body),
      id,
      options.secret,
      Date.now(),
    );
    const attempts = Number(row.attempts) + 1;
    if (result.ok) {
      sql.exec(
        "UPDATE outbox SET delivered_at = ?, attempts = ?, last_status = ? WHERE id = ?",
        new Date().toISOString(),
        attempts,
        result.status,
        id,
      );
    } else {
      sql.exec(
        "UPDATE outbox SET attempts = ?, last_status = ?, next_at = ? WHERE id = ?",
        attempts,
        result.status,
        options.now + backoffMs(attempts),
        id,
      );
      if (attempts >= MAX_ATTEMPTS) {
        options.log?.warn("outbox.gave_up", { id, attempts, lastStatus: result.status });
      }
    }
  }
  return nextOutboxAt(sql);
}

/** When the next undelivered notification is due, or null when none is. */
export function nextOutboxAt(sql: SqlStorage): number | null {
  const next = sql
    .exec<Row>(
      "SELECT MIN(next_at) AS next FROM outbox WHERE delivered_at IS NULL AND attempts < ?",
      MAX_ATTEMPTS,
    )
    .one().next;
  return next === null || next === undefined ? null : Number(next);
}

/** Outbox rows for the ledger view. */
export function outboxRows(sql: SqlStorage) {
  return sql
    .exec<Row>(
      "SELECT id, type, attempts, delivered_at, last_status, created_at FROM outbox ORDER BY created_at, rowid",
    )
    .toArray()
    .map((r) => ({
      id: String(r.id),
      type: String(r.type),
      attempts: Number(r.attempts),
      deliveredAt: r.delivered_at === null ? null : String(r.delivered_at),
      lastStatus: r.last_status === null ? null : String(r.last_status),
      createdAt: String(r.created_at),
    }));
}
