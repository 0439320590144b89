/**
 * @module
 * The outbox table: notifications written in the same transaction as the effect they report,
 * then delivered by the alarm. At-least-once: a row is marked delivered only after a 2xx.
 *
 * Every change of a row's delivery state (queued, tried, delivered, failed, redelivered) also
 * writes the row's view to the index feed (`index-feed.ts`) in the same write, so the
 * account's notification log (`GET /v1/notifications`) converges to the outboxes.
 *
 * Invariants:
 * - nothing is dropped: a row that used up its tries stays, `failed`, until redelivered;
 * - `attempts` counts every try ever made; `attempt_limit` is where the current round of tries
 *   stops (`MAX_ATTEMPTS` more per redelivery).
 */
import type { NotificationView } from "../../lib/api/merchant-ops.ts";
import type { Logger } from "../../lib/log.ts";
import { columnAdded, type MigrationTrack } from "../storage/migrations.ts";
import { feedPut } from "./index-feed.ts";
import { backoffMs, MAX_ATTEMPTS, type Notification, postNotification } from "./outbox.ts";

type Row = Record<string, SqlStorageValue>;

/** DDL of the outbox (idempotent, the newest shape); `OUTBOX_MIGRATIONS` brings older ones. */
export const OUTBOX_SCHEMA = `
CREATE TABLE IF NOT EXISTS outbox (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  delivered_at TEXT,
  last_status TEXT,
  created_at TEXT NOT NULL,
  last_attempt_at TEXT,
  attempt_limit INTEGER NOT NULL DEFAULT ${MAX_ATTEMPTS}
);
`;

/**
 * The outbox's numbered migrations (`core/storage/migrations.ts`): the columns later versions
 * added to an outbox made earlier.
 *
 * @example
 * migrate(sql, [OUTBOX_MIGRATIONS]);
 */
export const OUTBOX_MIGRATIONS: MigrationTrack = {
  track: "outbox",
  steps: [
    columnAdded(1, "outbox", "last_attempt_at", "TEXT", "when the last try was made"),
    columnAdded(
      2,
      "outbox",
      "attempt_limit",
      `INTEGER NOT NULL DEFAULT ${MAX_ATTEMPTS}`,
      "where the current round of tries stops",
    ),
  ],
};

/** What `last_status` means to the merchant: never a secret, never a response body. */
function lastError(status: SqlStorageValue | undefined): string | null {
  if (status === null || status === undefined) return null;
  const s = String(status);
  if (s === "skipped") return "not sent: no MERCHANT_WEBHOOK_URL";
  if (/^\d{3}$/.test(s)) return Number(s) < 300 ? null : `HTTP ${s}`;
  if (s === "TimeoutError") return "timeout";
  return "network error";
}

/** A row as the merchant sees it (`GET /v1/notifications`). */
export function notificationViewOf(r: Row): NotificationView {
  const delivered = r.delivered_at !== null && r.last_status !== "skipped";
  const pending = r.delivered_at === null && Number(r.attempts) < Number(r.attempt_limit);
  const data = (JSON.parse(String(r.body)) as { data?: { invoiceNumber?: unknown } }).data;
  return {
    id: String(r.id),
    type: String(r.type) as NotificationView["type"],
    invoiceNumber: typeof data?.invoiceNumber === "string" ? data.invoiceNumber : null,
    status: delivered ? "delivered" : pending ? "pending" : "failed",
    attempts: Number(r.attempts),
    lastAttemptAt: r.last_attempt_at === null ? null : String(r.last_attempt_at),
    lastError: delivered ? null : lastError(r.last_status),
    nextAttemptAt: pending ? new Date(Number(r.next_at)).toISOString() : null,
    createdAt: String(r.created_at),
    deliveredAt: delivered ? String(r.delivered_at) : null,
  };
}

/** Every column a notification's view is made of. */
const ROW_COLUMNS =
  "id, type, body, attempts, next_at, delivered_at, last_status, created_at, last_attempt_at, attempt_limit";

const SELECT_ROW = `SELECT ${ROW_COLUMNS} FROM outbox`;

/** Reports one row's current state to the index feed (same write as the change). */
function report(sql: SqlStorage, id: string, now: number): NotificationView | null {
  const row = sql.exec<Row>(`${SELECT_ROW} WHERE id = ?`, id).toArray()[0];
  return row ? reportRow(sql, row, now) : null;
}

/**
 * Reports a row the caller holds as it now is in the table (every `SELECT_ROW` column, just
 * written in this transaction), without reading it back.
 */
function reportRow(sql: SqlStorage, row: Row, now: number): NotificationView {
  const view = notificationViewOf(row);
  feedPut(sql, String(row.id), "notification", JSON.stringify(view), now);
  return view;
}

/**
 * Reports every row the index feed has never seen (an object made before the account index
 * existed): its failed and pending notifications join the log when the object next starts.
 * Answers how many were reported.
 *
 * @example
 * if (backfillFeed(sql, Date.now()) > 0) await host.arm();
 */
export function backfillFeed(sql: SqlStorage, now: number): number {
  const missing = sql
    .exec<{ id: string }>(
      "SELECT id FROM outbox WHERE id NOT IN (SELECT key FROM index_feed) ORDER BY created_at, rowid",
    )
    .toArray();
  for (const { id } of missing) report(sql, id, now);
  return missing.length;
}

/**
 * True when the outbox holds a notification of `type` (queued, delivered or failed: rows are
 * never deleted).
 *
 * @example
 * outboxHas(sql, "order.paid"); // the order already told the merchant it is paid
 */
export function outboxHas(sql: SqlStorage, type: string): boolean {
  return sql.exec("SELECT 1 FROM outbox WHERE type = ? LIMIT 1", type).toArray().length > 0;
}

/**
 * When the first notification of `type` was made (`created_at`), or null when none was
 * queued: one row, not a read of every row (the order's summary
 * asks it on every change).
 *
 * @example
 * firstQueuedAt(sql, "order.paid"); // "2026-11-23T19:11:15.123Z"
 */
export function firstQueuedAt(sql: SqlStorage, type: string): string | null {
  const row = sql
    .exec<Row>(
      "SELECT created_at FROM outbox WHERE type = ? ORDER BY created_at, rowid LIMIT 1",
      type,
    )
    .toArray()[0];
  return row ? String(row.created_at) : null;
}

/** Adds a notification to the outbox, due now; answers its view (pending). */
export function enqueue(sql: SqlStorage, note: Notification, now: number): NotificationView {
  const body = JSON.stringify(note);
  sql.exec(
    "INSERT INTO outbox (id, type, body, next_at, created_at) VALUES (?, ?, ?, ?, ?)",
    note.id,
    note.type,
    body,
    now,
    note.createdAt,
  );
  // The row as inserted (the other columns take their defaults), reported without a read back.
  return reportRow(
    sql,
    {
      id: note.id,
      type: note.type,
      body,
      attempts: 0,
      next_at: now,
      delivered_at: null,
      last_status: null,
      created_at: note.createdAt,
      last_attempt_at: null,
      attempt_limit: MAX_ATTEMPTS,
    },
    now,
  );
}

/**
 * Sends a notification again soon: back to pending, due now, with `MAX_ATTEMPTS` more tries
 * (whether it failed, is still retrying, or was delivered: the merchant asks, we send).
 * Null for an id this outbox does not hold.
 *
 * @example
 * const view = redeliver(sql, "evt_…", Date.now()); // view.status === "pending"
 */
export function redeliver(sql: SqlStorage, id: string, now: number): NotificationView | null {
  sql.exec(
    "UPDATE outbox SET delivered_at = NULL, next_at = ?, attempt_limit = attempts + ? WHERE id = ?",
    now,
    MAX_ATTEMPTS,
    id,
  );
  return report(sql, id, now);
}

/** How one pass delivers: where, signed with what, at which time, logged where. */
export interface OutboxPass {
  url: string | null;
  secret: string;
  now: number;
  log?: Logger;
}

/**
 * Delivers every due row once; returns when the alarm should fire next (or null).
 *
 * @example
 * const next = await deliverOutbox(sql, { url, secret, now: Date.now() });
 */
export async function deliverOutbox(sql: SqlStorage, options: OutboxPass): Promise<number | null> {
  await deliverDue(sql, options);
  return nextOutboxAt(sql);
}

/**
 * Delivers every due row once (`deliverOutbox` without the next wake's query: an object's
 * alarm asks every part for its wake once, at its end).
 * Without a merchant URL, rows are marked `skipped` (nothing to deliver to).
 *
 * `now` decides which rows are due and their next retry; each signature carries the time of
 * its own send (the merchant checks it against a tolerance, and earlier sends of the same run
 * may take up to their timeout each).
 *
 * @example
 * await deliverDue(sql, { url, secret, now: Date.now(), log });
 */
export async function deliverDue(sql: SqlStorage, options: OutboxPass): Promise<void> {
  const due = sql
    .exec<Row>(
      "SELECT id, body, attempts, attempt_limit FROM outbox WHERE delivered_at IS NULL AND attempts < attempt_limit AND next_at <= ? ORDER BY created_at, rowid",
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
      report(sql, id, options.now);
      continue;
    }
    const sentAt = Date.now();
    const result = await postNotification(
      options.url,
      String(row.body),
      id,
      options.secret,
      sentAt,
    );
    const attempts = Number(row.attempts) + 1;
    const tried = new Date(sentAt).toISOString();
    // Each update answers the row as it leaves it (`RETURNING`): reported without a read back.
    const left = (
      result.ok
        ? sql.exec<Row>(
            `UPDATE outbox SET delivered_at = ?, attempts = ?, last_status = ?, last_attempt_at = ? WHERE id = ? RETURNING ${ROW_COLUMNS}`,
            new Date().toISOString(),
            attempts,
            result.status,
            tried,
            id,
          )
        : sql.exec<Row>(
            `UPDATE outbox SET attempts = ?, last_status = ?, next_at = ?, last_attempt_at = ? WHERE id = ? RETURNING ${ROW_COLUMNS}`,
            attempts,
            result.status,
            options.now + backoffMs(attempts),
            tried,
            id,
          )
    ).toArray()[0];
    if (!result.ok && attempts >= Number(row.attempt_limit)) {
      // Kept as `failed` (GET /v1/notifications?status=failed, the doctor counts it).
      options.log?.warn("outbox.gave_up", { id, attempts, lastStatus: result.status });
    }
    if (left) reportRow(sql, left, options.now);
  }
}

/** When the next undelivered notification is due, or null when none is. */
export function nextOutboxAt(sql: SqlStorage): number | null {
  const next = sql
    .exec<Row>(
      "SELECT MIN(next_at) AS next FROM outbox WHERE delivered_at IS NULL AND attempts < attempt_limit",
    )
    .one().next;
  return next === null || next === undefined ? null : Number(next);
}

/** Every row's view, oldest first (the account object's own test events). */
export function outboxViews(sql: SqlStorage): NotificationView[] {
  return sql
    .exec<Row>(`${SELECT_ROW} ORDER BY created_at, rowid`)
    .toArray()
    .map(notificationViewOf);
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
