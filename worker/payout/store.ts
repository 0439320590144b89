/**
 * @module
 * The one row of a payout's Durable Object (`payout_info`): what the merchant asked for, the
 * current quote and, once committed, the withdrawal. Typed reads and writes only.
 */

import type { PayoutStatus } from "../../packages/contract/src/http-api.ts";
import { EVENT_LOG_SCHEMA } from "../core/events/event-log.ts";
import { integer, json, optionalJson, SingleRowTable, text } from "../core/storage/table.ts";
import type { Withdrawal, WithdrawalQuote } from "../service/types.ts";

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

/**
 * The payout's row, `payout_info`: the request as one JSON column (a repeated orderId compares
 * it whole), then the quote, the withdrawal and the times.
 */
const PAYOUT_INFO = new SingleRowTable<
  Omit<PayoutRow, keyof PayoutRequest> & { request: PayoutRequest }
>("payout_info", {
  request: json<PayoutRequest>("request_json"),
  status: text<PayoutStatus>("status"),
  quote: json<WithdrawalQuote>("quote_json"),
  quotes: integer("quotes"),
  withdrawal: optionalJson<Withdrawal>("withdrawal_json"),
  createdAt: text("created_at"),
  updatedAt: text("updated_at"),
});

/** Full schema of a payout object. */
export const PAYOUT_SCHEMA = `${PAYOUT_INFO.ddl}
${EVENT_LOG_SCHEMA}`;

/**
 * Reads the payout row, or null before the first quote.
 *
 * @example
 * const row = readPayout(ctx.storage.sql);
 */
export function readPayout(sql: SqlStorage): PayoutRow | null {
  const stored = PAYOUT_INFO.read(sql);
  if (!stored) return null;
  const { request, ...rest } = stored;
  return { ...request, ...rest };
}

/**
 * Writes the whole row (insert or replace).
 *
 * @example
 * writePayout(sql, { ...row, status: "created", withdrawal, updatedAt: now });
 */
export function writePayout(sql: SqlStorage, p: PayoutRow): void {
  const { orderId, kind, invoiceNumber, cryptoCurrencyCode, network, address, amount, ...rest } = p;
  const request = { orderId, kind, invoiceNumber, cryptoCurrencyCode, network, address, amount };
  PAYOUT_INFO.write(sql, { request, ...rest });
}
