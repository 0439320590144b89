/**
 * @module
 * The one row of a top-up's Durable Object (`deposit_info`), described once (`core/storage/table.ts`).
 * No business rules here: status rules live in `status.ts`, money in `settlement.ts`.
 */

import type { CryptoCurrency, DepositStatus } from "../../packages/contract/src/http-api.ts";
import { EVENT_LOG_SCHEMA } from "../core/events/event-log.ts";
import { json, optionalJson, optionalText, SingleRowTable, text } from "../core/storage/table.ts";
import type { Settlement } from "../service/types.ts";

/** The currency entry a top-up was opened with, plus the deposit network fee quoted then. */
export interface DepositCurrency extends Omit<CryptoCurrency, "depositNetworkFee"> {
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

/**
 * The top-up's row, `deposit_info`: one column per field.
 *
 * @example
 * DEPOSIT_INFO.write(sql, { ...DEPOSIT_INFO.read(sql)!, status: "processing", updatedAt: now });
 */
export const DEPOSIT_INFO = new SingleRowTable<DepositRow>("deposit_info", {
  checkoutId: text("checkout_id"),
  topUpId: text("top_up_id"),
  customerId: optionalText("customer_id"),
  orderId: text("order_id"),
  depositId: text("deposit_id"),
  currency: json<DepositCurrency>("currency_json"),
  address: text("address"),
  minimumAmount: optionalText("minimum_amount"),
  expiresAt: optionalText("expires_at"),
  status: text<DepositStatus>("status"),
  settlement: optionalJson<Settlement>("settlement_json"),
  createdAt: text("created_at"),
  updatedAt: text("updated_at"),
});

/** Full schema of a top-up object. */
export const DEPOSIT_SCHEMA = `${DEPOSIT_INFO.ddl}
${EVENT_LOG_SCHEMA}`;
