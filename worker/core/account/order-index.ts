/**
 * @module
 * The account's order index (`orders` table): applies order summaries fed by each order
 * object, and answers the list's filtered, newest-first pages.
 *
 * Invariant: a summary replaces the stored one only with a higher version of its order's feed
 * row, so deliveries repeated, reordered or retried after a fault leave the newest.
 */
import type { OrderSummary } from "../../lib/api/merchant-ops.ts";
import type { OrderFilters, Page } from "./account-rpc.ts";
import { type Condition, page } from "./keyset.ts";
import type { PagePosition } from "./page-cursor.ts";

/**
 * Stores a summary unless the index already holds this version of it or a newer one.
 *
 * @example
 * applyOrder(sql, "order:ab12…", 3, JSON.stringify(summary));
 */
export function applyOrder(sql: SqlStorage, source: string, version: number, body: string): void {
  const s = JSON.parse(body) as OrderSummary;
  sql.exec(
    `INSERT INTO orders (invoice_number, state, currency, crypto_code, created_at, version, source, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(invoice_number) DO UPDATE SET state = excluded.state, currency = excluded.currency,
       crypto_code = excluded.crypto_code, created_at = excluded.created_at,
       version = excluded.version, source = excluded.source, body = excluded.body
     WHERE excluded.version > orders.version`,
    s.invoiceNumber,
    s.state,
    s.currency,
    s.cryptoCurrencyCode,
    s.createdAt,
    version,
    source,
    body,
  );
}

/** Invoice numbers are `[A-Za-z0-9._-]`: every one starting with `p` sorts below `p` + "{". */
const PREFIX_END = "{";

/** The list's conditions for `filters` (bound values only). */
function conditions(filters: OrderFilters): Condition[] {
  const out: Condition[] = [];
  if (filters.states?.length) {
    // Each state bound once, whatever the caller sent: SQLite binds at most 100 values a
    // statement, and there are only four states.
    const states = [...new Set(filters.states)];
    out.push({ sql: `state IN (${states.map(() => "?").join(",")})`, args: states });
  }
  if (filters.createdFrom) out.push({ sql: "created_at >= ?", args: [filters.createdFrom] });
  if (filters.createdTo) out.push({ sql: "created_at < ?", args: [filters.createdTo] });
  if (filters.invoicePrefix) {
    const p = filters.invoicePrefix;
    out.push({ sql: "invoice_number >= ? AND invoice_number < ?", args: [p, p + PREFIX_END] });
  }
  if (filters.currency) out.push({ sql: "currency = ?", args: [filters.currency] });
  if (filters.cryptoCurrencyCode)
    out.push({ sql: "crypto_code = ?", args: [filters.cryptoCurrencyCode] });
  return out;
}

/**
 * One page of orders, newest first (`createdAt` desc, then invoice number desc).
 *
 * @example
 * const { data, next } = listOrders(sql, { states: ["paid"] }, 50, null);
 */
export function listOrders(
  sql: SqlStorage,
  filters: OrderFilters,
  limit: number,
  after: PagePosition | null,
): Page<OrderSummary> {
  const found = page<OrderSummary>(
    sql,
    "orders",
    "invoice_number",
    conditions(filters),
    limit,
    after,
  );
  // A summary written before the payment columns existed reads as paid by invoice, if at all.
  return { ...found, data: found.data.map(withPaymentColumns) };
}

/** An older summary with the payment columns filled as they were then (invoices only). */
function withPaymentColumns(s: OrderSummary): OrderSummary {
  if (s.paymentMethod !== undefined) return s;
  const paid = /[1-9]/.test(s.amountPaid);
  return { ...s, paymentMethod: paid ? "invoice" : null, x402Payer: null, x402Transaction: null };
}
