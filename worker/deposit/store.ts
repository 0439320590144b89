/**
 * @module
 * The one row of a top-up's Durable Object (`deposit_info`) and its typed reads and writes.
 * No business rules here: status rules live in `status.ts`, money in `settlement.ts`.
 */
import type { CryptoCurrency, DepositStatus } from "../api/contract.ts";
import { EVENT_LOG_SCHEMA } from "../events/event-log.ts";
import type { Settlement } from "../upstream/types.ts";

/** The currency entry a top-up was opened with, plus the deposit network fee quoted then. */
export interface DepositCurrency extends CryptoCurrency {
  depositNetworkFee: string | null;
}

/** The top-up as stored. */
export interface DepositRow {
  checkoutId: string;
  topUpId: string;
  customerId: string | null;
  /** Upstream orderId `<prefix>-<topUpId>`. */
  orderId: string;
  /** The service's deposit id. */
  depositId: string;
  currency: DepositCurrency;
  address: string;
  minimumAmount: string | null;
  expiresAt: string | null;
  status: DepositStatus;
  settlement: Settlement | null;
  createdAt: string;
  updatedAt: string;
}

/** Full schema of a top-up object. */
export const DEPOSIT_SCHEMA = `
CREATE TABLE IF NOT EXISTS deposit_info (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  checkout_id TEXT NOT NULL,
  top_up_id TEXT NOT NULL,
  customer_id TEXT,
  order_id TEXT NOT NULL,
  deposit_id TEXT NOT NULL,
  currency_json TEXT NOT NULL,
  address TEXT NOT NULL,
  minimum_amount TEXT,
  expires_at TEXT,
  status TEXT NOT NULL,
  settlement_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
${EVENT_LOG_SCHEMA}`;

type Row = Record<string, SqlStorageValue>;
const str = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : String(v));

/**
 * Reads the top-up row, or null before the first open.
 *
 * @example
 * const row = readDeposit(ctx.storage.sql);
 */
export function readDeposit(sql: SqlStorage): DepositRow | null {
  const r = sql.exec<Row>("SELECT * FROM deposit_info WHERE id = 1").toArray()[0];
  if (!r) return null;
  return {
    checkoutId: String(r.checkout_id),
    topUpId: String(r.top_up_id),
    customerId: str(r.customer_id),
    orderId: String(r.order_id),
    depositId: String(r.deposit_id),
    currency: JSON.parse(String(r.currency_json)) as DepositCurrency,
    address: String(r.address),
    minimumAmount: str(r.minimum_amount),
    expiresAt: str(r.expires_at),
    status: String(r.status) as DepositStatus,
    settlement:
      typeof r.settlement_json === "string" ? (JSON.parse(r.settlement_json) as Settlement) : null,
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

/**
 * Writes the whole row (insert or replace).
 *
 * @example
 * writeDeposit(sql, { ...row, status: "processing", updatedAt: now });
 */
export function writeDeposit(sql: SqlStorage, d: DepositRow): void {
  sql.exec(
    `INSERT OR REPLACE INTO deposit_info (id, checkout_id, top_up_id, customer_id, order_id,
      deposit_id, currency_json, address, minimum_amount, expires_at, status, settlement_json,
      created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    d.checkoutId,
    d.topUpId,
    d.customerId,
    d.orderId,
    d.depositId,
    JSON.stringify(d.currency),
    d.address,
    d.minimumAmount,
    d.expiresAt,
    d.status,
    d.settlement ? JSON.stringify(d.settlement) : null,
    d.createdAt,
    d.updatedAt,
  );
}
