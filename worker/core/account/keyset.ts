/**
 * @module
 * The one newest-first page query both lists use: `WHERE <filters> AND (created_at, key) <
 * (after)` (a row-value comparison, which the indexes answer by a seek) ordered by `created_at DESC, key DESC`, one row more than the page to know whether
 * another page follows. Filters are bound parameters, never spliced values.
 */
import type { Page } from "./account-rpc.ts";
import type { PagePosition } from "./page-cursor.ts";

/** One filter: an SQL condition with `?` placeholders and its values. */
export interface Condition {
  sql: string;
  args: SqlStorageValue[];
}

/**
 * A page of `table` (`key` its unique column, `body` the row's JSON).
 *
 * @example
 * page<OrderSummary>(sql, "orders", "invoice_number", [{ sql: "state = ?", args: ["paid"] }], 50, null);
 */
export function page<T>(
  sql: SqlStorage,
  table: "orders" | "notifications",
  key: "invoice_number" | "id",
  conditions: Condition[],
  limit: number,
  after: PagePosition | null,
): Page<T> {
  const all = [...conditions];
  if (after) {
    // A row value: SQLite seeks the (created_at, key) index to the position, where the
    // equivalent OR scanned from the newest row down (pages got slower with depth).
    all.push({ sql: `(created_at, ${key}) < (?, ?)`, args: [after.createdAt, after.key] });
  }
  const where = all.length ? `WHERE ${all.map((c) => c.sql).join(" AND ")}` : "";
  const rows = sql
    .exec<{ k: string; created_at: string; body: string }>(
      `SELECT ${key} AS k, created_at, body FROM ${table} ${where} ORDER BY created_at DESC, ${key} DESC LIMIT ?`,
      ...all.flatMap((c) => c.args),
      limit + 1,
    )
    .toArray();
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return {
    data: data.map((r) => JSON.parse(r.body) as T),
    next: rows.length > limit && last ? { createdAt: last.created_at, key: last.k } : null,
  };
}
