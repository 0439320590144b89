/**
 * @module
 * The one row of a payout's Durable Object (`payout_info`): what the merchant asked for, the
 * current quote and, once committed, the withdrawal. Typed reads and writes only.
 */
import type { PayoutStatus } from "../api/contract.ts";
import { EVENT_LOG_SCHEMA } from "../events/event-log.ts";
import type { Withdrawal, WithdrawalQuote } from "../upstream/types.ts";

/** The parameters of a payout; a repeated orderId must repeat them exactly. */
export interface PayoutRequest {
  orderId: string;
  kind: "payout" | "refund";
  invoiceNumber: string | null;
  cryptoCurrencyCode: string;
  network: string;
  address: string;
  /** Canonical decimal string. */
  amount: string;
}

/** The payout as stored. */
export interface PayoutRow extends PayoutRequest {
  status: PayoutStatus;
  quote: WithdrawalQuote;
  /** How many quotes were made for this orderId (re-quotes after expiry). */
  quotes: number;
  withdrawal: Withdrawal | null;
  createdAt: string;
  updatedAt: string;
}

/** Full schema of a payout object. */
export const PAYOUT_SCHEMA = `
CREATE TABLE IF NOT EXISTS payout_info (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  request_json TEXT NOT NULL,
  status TEXT NOT NULL,
  quote_json TEXT NOT NULL,
  quotes INTEGER NOT NULL,
  withdrawal_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
${EVENT_LOG_SCHEMA}`;

type Row = Record<string, SqlStorageValue>;

/**
 * Reads the payout row, or null before the first quote.
 *
 * @example
 * const row = readPayout(ctx.storage.sql);
 */
export function readPayout(sql: SqlStorage): PayoutRow | null {
  const r = sql.exec<Row>("SELECT * FROM payout_info WHERE id = 1").toArray()[0];
  if (!r) return null;
  return {
    ...(JSON.parse(String(r.request_json)) as PayoutRequest),
    status: String(r.status) as PayoutStatus,
    quote: JSON.parse(String(r.quote_json)) as WithdrawalQuote,
    quotes: Number(r.quotes),
    withdrawal:
      typeof r.withdrawal_json === "string" ? (JSON.parse(r.withdrawal_json) as Withdrawal) : null,
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

/**
 * Writes the whole row (insert or replace).
 *
 * @example
 * writePayout(sql, { ...row, status: "created", withdrawal, updatedAt: now });
 */
export function writePayout(sql: SqlStorage, p: PayoutRow): void {
  const request: PayoutRequest = {
    orderId: p.orderId,
    kind: p.kind,
    invoiceNumber: p.invoiceNumber,
    cryptoCurrencyCode: p.cryptoCurrencyCode,
    network: p.network,
    address: p.address,
    amount: p.amount,
  };
  sql.exec(
    `INSERT OR REPLACE INTO payout_info (id, request_json, status, quote_json, quotes,
      withdrawal_json, created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?)`,
    JSON.stringify(request),
    p.status,
    JSON.stringify(p.quote),
    p.quotes,
    p.withdrawal ? JSON.stringify(p.withdrawal) : null,
    p.createdAt,
    p.updatedAt,
  );
}
