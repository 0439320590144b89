/**
 * @module
 * What the order tells a refund about itself (`order/refunds/plan.ts` `RefundFacts`): its state with
 * its refunds, the shopper's refund address, each attempt's money and whether it is still open,
 * and the refunds already made. Nothing else of the order (no log, no payments, no outbox).
 *
 * Invariant: an attempt is *open* while the shopper may still pay into it, by this folder's
 * status rules (`status.ts`): not ended, and its status neither ending nor final. The status
 * given is the service's (`ledger-view.ts`), as the merchant's ledger shows it.
 */

import { cmp, sub } from "../lib/money/decimal.ts";
import { serviceStatus } from "./ledger-view.ts";
import type { RefundFacts } from "./refunds/plan.ts";
import { readRefunds } from "./refunds/records.ts";
import { NO_TERMS, orderTotals, type PaymentTerms } from "./snapshot.ts";
import { ENDED, FINAL } from "./status.ts";
import type { OrderRow, OrderStore } from "./store.ts";

/**
 * The facts a refund of `order` is planned on, read in one synchronous step.
 *
 * @example
 * refundPlan(refundFacts(store, order, terms));
 */
export function refundFacts(
  store: OrderStore,
  order: OrderRow,
  terms: PaymentTerms = NO_TERMS,
): RefundFacts {
  const attempts = store.attempts();
  const refunds = readRefunds(store.sql);
  return {
    state: orderTotals(order, attempts, refunds, terms).state,
    // What the invoices had to cover: x402 money (in the merchant's own wallet) counts first,
    // so an invoice paid beside it is the excess a refund returns from the service balance.
    amount: cmp(order.walletPaid, order.amount) >= 0 ? "0" : sub(order.amount, order.walletPaid),
    refundAddress:
      order.refundAddress && order.refundCurrency
        ? { cryptoCurrencyCode: order.refundCurrency, address: order.refundAddress }
        : null,
    attempts: attempts.map((a) => {
      const status = serviceStatus(store.sql, a);
      return {
        number: a.number,
        status,
        open: !a.ended && !ENDED.has(status) && !FINAL.has(status),
        cryptoCurrencyCode: a.currency?.code ?? null,
        cryptoExpected: a.cryptoExpected,
        cryptoReceived: a.cryptoReceived,
        fiatAmount: a.fiatAmount,
        fiatApplied: a.fiatApplied,
        decimalPlaces: a.currency?.decimalPlaces ?? null,
      };
    }),
    refunds,
  };
}
