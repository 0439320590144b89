/**
 * @module
 * Owns the account's `x402_routes` table (described once here, over `core/storage/table.ts`):
 * which checkout an x402 transaction paid. The service's `x402.payment.*`
 * webhooks name a settlement by its transaction, payer and wallet, never by an order, so the
 * order that settled an authorization writes its transaction here as soon as the facilitator
 * names it, and the webhook route reads it back to reach that order.
 *
 * Bounded: rows older than `ROUTE_DAYS` are pruned (a settlement confirms within minutes;
 * a later webhook for it finds no route and is acknowledged, the order having read the outcome
 * itself).
 */

import { integer, primaryKey, Table, text } from "../storage/table.ts";

/** One route. */
export interface X402RouteRow {
  /** The transaction hash, lowercase: the key, written once (the first route stays). */
  transaction: string;
  checkoutId: string;
  /** Epoch ms it was written (pruning reads it through its index). */
  createdAt: number;
}

/**
 * The table (part of the account's schema).
 *
 * @example
 * sql.exec(X402_ROUTES.ddl);
 */
export const X402_ROUTES = new Table<X402RouteRow>(
  "x402_routes",
  {
    transaction: primaryKey(text("transaction_hash")),
    checkoutId: text("checkout_id"),
    createdAt: integer("created_at"),
  },
  [],
  { x402_routes_created: ["createdAt"] },
);

/** How long a route is kept. */
export const ROUTE_DAYS = 30;

/**
 * Records that `transaction` paid checkout `checkoutId` (idempotent; the first route stays).
 *
 * @example
 * putRoute(sql, "0xab…", "co_…", Date.now());
 */
export function putRoute(sql: SqlStorage, transaction: string, checkoutId: string, now: number) {
  X402_ROUTES.write(sql, "INSERT OR IGNORE", {
    transaction: transaction.toLowerCase(),
    checkoutId,
    createdAt: now,
  });
  sql.exec("DELETE FROM x402_routes WHERE created_at < ?", now - ROUTE_DAYS * 86_400_000);
}

/**
 * The checkout `transaction` paid, or null.
 *
 * @example
 * routeOf(sql, "0xab…"); // "co_…"
 */
export function routeOf(sql: SqlStorage, transaction: string): string | null {
  const row = X402_ROUTES.select(sql, "WHERE transaction_hash = ?", transaction.toLowerCase())[0];
  return row?.checkoutId ?? null;
}
