/**
 * @module
 * The merchant's view of a payout (`PayoutView`) and its notification. Pure mapping.
 */

import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import { type Notification, notification } from "../core/events/outbox.ts";
import type { PayoutRow } from "./store.ts";

/**
 * The view of a stored payout.
 *
 * @example
 * payoutView(row).totalDeduction; // "101.62" for 100 USDT_TRC20 with a 1.62 fee
 */
export function payoutView(row: PayoutRow): PayoutView {
  const { quote, withdrawal: w } = row;
  return {
    orderId: row.orderId,
    kind: row.kind,
    invoiceNumber: row.invoiceNumber,
    status: row.status,
    cryptoCurrencyCode: row.cryptoCurrencyCode,
    network: row.network,
    address: row.address,
    amount: row.amount,
    fee: { ...quote.fee },
    totalDeduction: quote.totalDeduction,
    expiresAt: quote.expiresAt,
    quoteId: quote.quoteId,
    withdrawal: w
      ? {
          id: w.id,
          status: w.status,
          transactionHash: w.transactionHash,
          feeAmount: w.feeAmount,
          debitedAmount: w.debitedAmount,
          createdAt: w.createdAt,
          updatedAt: w.updatedAt,
        }
      : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * `payout.status_changed` for the merchant.
 *
 * @example
 * payoutNotification(row, "created", now).data.status; // "processing"
 */
export function payoutNotification(
  row: PayoutRow,
  previousStatus: string,
  now: string,
): Notification {
  return notification("payout.status_changed", now, {
    orderId: row.orderId,
    kind: row.kind,
    invoiceNumber: row.invoiceNumber,
    withdrawalId: row.withdrawal?.id ?? null,
    status: row.status,
    previousStatus,
    cryptoCurrencyCode: row.cryptoCurrencyCode,
    address: row.address,
    amount: row.amount,
    debitedAmount: row.withdrawal?.debitedAmount ?? null,
    transactionHash: row.withdrawal?.transactionHash ?? null,
  });
}
