/**
 * @module
 * The account's notification log (`notifications` table): every notification of every order,
 * top-up and payout (and the account's own test events), with its delivery state as the
 * owning object's outbox reports it (`core/events/outbox-store.ts`), and where it lives, so the
 * merchant can list failed ones across orders and redeliver one by id.
 *
 * Retention (the log is a view; each object's outbox keeps its own rows, shown in the order's
 * ledger): delivered notifications are kept 30 days, failed ones 90 days (each pruning of a
 * failed one is logged), pending ones until they leave pending; and at most
 * `MAX_LOGGED` delivered ones, oldest pruned first.
 */
import type { NotificationView } from "../../lib/api/merchant-ops.ts";
import type { NotificationFilters, Page } from "./account-rpc.ts";
import { type Condition, page } from "./keyset.ts";
import type { PagePosition } from "./page-cursor.ts";

const DAY_MS = 86_400_000;
/** How long a delivered notification stays in the log. */
export const DELIVERED_RETENTION_MS = 30 * DAY_MS;
/** How long a failed notification stays in the log (then only its order's ledger has it). */
export const FAILED_RETENTION_MS = 90 * DAY_MS;
/** Delivered notifications kept at most (the oldest go first). */
export const MAX_LOGGED = 100_000;

/**
 * Stores a notification's state unless the log holds this version of it or a newer one.
 *
 * @example
 * applyNotification(sql, "order:ab12…", 2, JSON.stringify(view));
 */
export function applyNotification(
  sql: SqlStorage,
  source: string,
  version: number,
  body: string,
): void {
  const v = JSON.parse(body) as NotificationView;
  sql.exec(
    `INSERT INTO notifications (id, status, invoice_number, created_at, version, source, body)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET status = excluded.status, version = excluded.version,
       body = excluded.body
     WHERE excluded.version > notifications.version`,
    v.id,
    v.status,
    v.invoiceNumber,
    v.createdAt,
    version,
    source,
    body,
  );
}

/** The object whose outbox holds notification `id`, or null when the log does not know it. */
export function sourceOf(sql: SqlStorage, id: string): string | null {
  const row = sql
    .exec<{ source: string }>("SELECT source FROM notifications WHERE id = ?", id)
    .toArray()[0];
  return row?.source ?? null;
}

/** Failed notifications in the log (the doctor reports them). */
export function failedCount(sql: SqlStorage): number {
  return Number(
    sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM notifications WHERE status = 'failed'").one()
      .n,
  );
}

/**
 * One page of the log, newest first.
 *
 * @example
 * listNotifications(sql, { status: "failed" }, 50, null).data;
 */
export function listNotifications(
  sql: SqlStorage,
  filters: NotificationFilters,
  limit: number,
  after: PagePosition | null,
): Page<NotificationView> {
  const where: Condition[] = [];
  if (filters.status) where.push({ sql: "status = ?", args: [filters.status] });
  if (filters.invoiceNumber)
    where.push({ sql: "invoice_number = ?", args: [filters.invoiceNumber] });
  return page<NotificationView>(sql, "notifications", "id", where, limit, after);
}

/**
 * Applies the retention bounds at `now`; answers how many failed notifications it pruned.
 *
 * @example
 * pruneLog(sql, Date.now());
 */
export function pruneLog(sql: SqlStorage, now: number): number {
  const before = (ms: number) => new Date(now - ms).toISOString();
  sql.exec(
    "DELETE FROM notifications WHERE status = 'delivered' AND created_at < ?",
    before(DELIVERED_RETENTION_MS),
  );
  sql.exec(
    `DELETE FROM notifications WHERE id IN (SELECT id FROM notifications WHERE status = 'delivered'
       ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?)`,
    MAX_LOGGED,
  );
  return sql.exec(
    "DELETE FROM notifications WHERE status = 'failed' AND created_at < ?",
    before(FAILED_RETENTION_MS),
  ).rowsWritten;
}
