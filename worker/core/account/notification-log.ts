/**
 * @module
 * The account's notification log: owns the `notifications` table (described once here, over
 * `core/storage/table.ts`): every notification of every order, top-up and payout (and the
 * account's own test events), with its delivery state as the owning object's outbox reports it
 * (`core/events/outbox-store.ts`), and where it lives, so the merchant can list failed ones
 * across orders and redeliver one by id.
 *
 * Retention (the log is a view; each object's outbox keeps its own rows, shown in the order's
 * ledger): delivered notifications are kept 30 days, failed ones 90 days (each pruning of a
 * failed one is logged), pending ones until they leave pending; and at most
 * `MAX_LOGGED` delivered ones, oldest pruned first.
 */
import type { NotificationStatus } from "../../../packages/contract/src/http-api.ts";
import type { NotificationView } from "../../lib/api/merchant-ops.ts";
import { integer, optionalText, primaryKey, Table, text } from "../storage/table.ts";
import type { NotificationFilters, Page } from "./account-rpc.ts";
import { type Condition, page } from "./keyset.ts";
import type { PagePosition } from "./page-cursor.ts";

/** One notification as the log holds it. */
export interface NotificationLogRow {
  /** The notification's id (unique across the account's objects). */
  id: string;
  status: NotificationStatus;
  /** The order it is about; null for a top-up's, a payout's or a test event. */
  invoiceNumber: string | null;
  createdAt: string;
  /** The version of the feed row this came from: only a higher one replaces it. */
  version: number;
  /** The object whose outbox holds it (`ACCOUNT_SOURCE` for the account's own test events). */
  source: string;
  /** The `NotificationView` as JSON, exactly as fed. */
  body: string;
}

/**
 * The table, with the list's indexes (each ending in the page's order: `created_at`, then `id`).
 *
 * @example
 * sql.exec(NOTIFICATIONS.ddl);
 */
export const NOTIFICATIONS = new Table<NotificationLogRow>(
  "notifications",
  {
    id: primaryKey(text("id")),
    status: text<NotificationStatus>("status"),
    invoiceNumber: optionalText("invoice_number"),
    createdAt: text("created_at"),
    version: integer("version"),
    source: text("source"),
    body: text("body"),
  },
  [],
  {
    notifications_created: ["createdAt", "id"],
    notifications_status: ["status", "createdAt", "id"],
    notifications_invoice: ["invoiceNumber", "createdAt", "id"],
  },
);

/** What a newer version changes: a notification's order, time and holder never do. */
const UPDATED = ["status", "version", "body"] as const;

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
  const row: NotificationLogRow = {
    id: v.id,
    status: v.status,
    invoiceNumber: v.invoiceNumber,
    createdAt: v.createdAt,
    version,
    source,
    body,
  };
  NOTIFICATIONS.upsert(sql, row, "id", UPDATED, "version");
}

/**
 * The object whose outbox holds notification `id`, or null when the log does not know it.
 *
 * @example
 * sourceOf(sql, "ntf_…"); // "order:ab12…"
 */
export function sourceOf(sql: SqlStorage, id: string): string | null {
  return NOTIFICATIONS.select(sql, "WHERE id = ?", id)[0]?.source ?? null;
}

/**
 * Failed notifications in the log (the doctor reports them).
 *
 * @example
 * failedCount(sql); // 2
 */
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
