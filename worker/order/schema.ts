/**
 * @module
 * SQLite schema of one order's Durable Object, created lazily by `StoredObject.ensureSchema`:
 * by the call that opens the order, or on a later start when the object already has one (a
 * read of an unknown checkout creates no storage). DDL is idempotent, so a restart also adds
 * tables of newer versions.
 *
 * - `order_info`: the order itself (one row);
 * - `attempts`: one row per upstream invoice (`<prefix>-<n>`, `-2`, `-3`, …);
 * - `payments`: money applied to the order (append-only);
 * - `refunds`: committed refund withdrawals (`<prefix>-<n>-refund`, `-refund-2`, …), one row per
 *   refund orderId, written idempotently by `refunds/records.ts`; status only moves forward; each keeps
 *   the address, currency, amount and withdrawal id it was paid with (`address` was added
 *   later: `upgradeRefunds` adds the column to older objects);
 * - `refund_hold`: the order's refund in progress or made (one row): taken before quoting, so
 *   no new attempt or currency lock starts under a refund; released when that refund ends
 *   failed/cancelled or definitely never happened (`refunds/hold.ts`);
 * - plus the shared `events`, `deliveries` and `outbox` tables (`events/event-log.ts`).
 */
import { EVENT_LOG_SCHEMA } from "../events/event-log.ts";

export const ORDER_SCHEMA = `
CREATE TABLE IF NOT EXISTS order_info (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  checkout_id TEXT NOT NULL,
  invoice_number TEXT NOT NULL,
  amount TEXT NOT NULL,
  currency TEXT NOT NULL,
  fiat_dp INTEGER NOT NULL,
  description TEXT,
  customer_id TEXT,
  return_url TEXT,
  refund_currency TEXT,
  refund_address TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
  number INTEGER PRIMARY KEY,
  order_id TEXT NOT NULL UNIQUE,
  invoice_id TEXT NOT NULL UNIQUE,
  fiat_amount TEXT NOT NULL,
  status TEXT NOT NULL,
  ended INTEGER NOT NULL DEFAULT 0,
  payment_page_url TEXT NOT NULL,
  expires_at TEXT,
  currency_json TEXT,
  crypto_expected TEXT,
  crypto_received TEXT NOT NULL DEFAULT '0',
  address TEXT,
  lock_expires_at TEXT,
  crypto_applied TEXT NOT NULL DEFAULT '0',
  fiat_applied TEXT NOT NULL DEFAULT '0',
  fiat_overpaid TEXT NOT NULL DEFAULT '0',
  settlement_json TEXT,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL,
  crypto_code TEXT,
  crypto_amount TEXT NOT NULL,
  fiat_amount TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS refunds (
  order_id TEXT PRIMARY KEY,
  number INTEGER NOT NULL,
  crypto_code TEXT NOT NULL,
  amount TEXT NOT NULL,
  status TEXT NOT NULL,
  withdrawal_id TEXT,
  updated_at TEXT NOT NULL,
  address TEXT
);
CREATE TABLE IF NOT EXISTS refund_hold (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  order_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  started_at TEXT NOT NULL
);
${EVENT_LOG_SCHEMA}
`;
