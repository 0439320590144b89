/**
 * @module
 * SQLite schema of the account's index object (`account-object.ts`), one object per service
 * account. Every table is a projection the objects that own the facts feed (`core/events/index-feed.ts`):
 *
 * - `orders`: each order's summary (`OrderSummary` JSON in `body`) with the columns the list
 *   filters and sorts on, and the `version` of the order's feed row it came from (a row only
 *   ever moves to a higher version: a stale, reordered or repeated delivery changes nothing);
 * - `notifications`: each notification's delivery state, with the object (`source`) whose
 *   outbox holds it, for redelivery; bounded by `notification-log.ts` retention;
 * - `webhook_minutes` / `webhook_health`: the service's webhooks refused for a bad signature,
 *   per minute for the last 24 h, and the last refused and verified times;
 * - `followed_facts`: followed objects' new facts, kept until the reconciler takes them
 *   (`followed-facts.ts`);
 * - `x402_routes`: which checkout an x402 transaction paid (`x402-routes.ts`);
 * - plus the shared `outbox` and `index_feed` (the account's own test notifications).
 */
import { INDEX_FEED_SCHEMA } from "../events/index-feed.ts";
import { OUTBOX_SCHEMA } from "../events/outbox-store.ts";
import { FOLLOWED_FACTS_SCHEMA } from "./followed-facts.ts";
import { X402_ROUTES_SCHEMA } from "./x402-routes.ts";

export const ACCOUNT_SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  invoice_number TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  currency TEXT NOT NULL,
  crypto_code TEXT,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  source TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_created ON orders (created_at, invoice_number);
CREATE INDEX IF NOT EXISTS orders_state ON orders (state, created_at, invoice_number);
CREATE INDEX IF NOT EXISTS orders_currency ON orders (currency, created_at, invoice_number);
CREATE INDEX IF NOT EXISTS orders_crypto ON orders (crypto_code, created_at, invoice_number);
CREATE TABLE IF NOT EXISTS notifications (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  invoice_number TEXT,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  source TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notifications_created ON notifications (created_at, id);
CREATE INDEX IF NOT EXISTS notifications_status ON notifications (status, created_at, id);
CREATE INDEX IF NOT EXISTS notifications_invoice ON notifications (invoice_number, created_at, id);
CREATE TABLE IF NOT EXISTS webhook_minutes (
  minute INTEGER PRIMARY KEY,
  refused INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_health (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_refused_at TEXT,
  last_verified_at TEXT
);
${FOLLOWED_FACTS_SCHEMA}${X402_ROUTES_SCHEMA}${OUTBOX_SCHEMA}${INDEX_FEED_SCHEMA}`;
