/**
 * @module
 * `x402_routes`: which checkout an x402 transaction paid. The service's `x402.payment.*`
 * webhooks name a settlement by its transaction, payer and wallet, never by an order, so the
 * order that settled an authorization writes its transaction here as soon as the facilitator
 * names it, and the webhook route reads it back to reach that order.
 *
 * Bounded: rows older than `ROUTE_DAYS` are pruned (a settlement confirms within minutes;
 * a later webhook for it finds no route and is acknowledged, the order having read the outcome
 * itself).
 */

/** DDL (idempotent). */
export const X402_ROUTES_SCHEMA = `
CREATE TABLE IF NOT EXISTS x402_routes (
  transaction_hash TEXT PRIMARY KEY,
  checkout_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS x402_routes_created ON x402_routes (created_at);
`;

/** How long a route is kept. */
export const ROUTE_DAYS = 30;

/**
 * Records that `transaction` paid checkout `checkoutId` (idempotent; the first route stays).
 *
 * @example
 * putRoute(sql, "0xab…", "co_…", Date.now());
 */
export function putRoute(sql: SqlStorage, transaction: string, checkoutId: string, now: number) {
  sql.exec(
    "INSERT OR IGNORE INTO x402_routes (transaction_hash, checkout_id, created_at) VALUES (?, ?, ?)",
    transaction.toLowerCase(),
    checkoutId,
    now,
  );
  sql.exec("DELETE FROM x402_routes WHERE created_at < ?", now - ROUTE_DAYS * 86_400_000);
}

/**
 * The checkout `transaction` paid, or null.
 *
 * @example
 * routeOf(sql, "0xab…"); // "co_…"
 */
export function routeOf(sql: SqlStorage, transaction: string): string | null {
  const row = sql
    .exec<{ checkout_id: string }>(
      "SELECT checkout_id FROM x402_routes WHERE transaction_hash = ?",
      transaction.toLowerCase(),
    )
    .toArray()[0];
  return row?.checkout_id ?? null;
}
