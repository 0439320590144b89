/**
 * @module
 * An order's line in the merchant's list (`GET /v1/orders`, `OrderSummary`), computed from the
 * order's own rows: the same totals as its ledger (`ledger-view.ts`), so the account's index,
 * fed this summary through the order's index feed, equals the ledgers once the feed is
 * delivered (the simulation checks it).
 *
 * - `cryptoCurrencyCode`: the newest attempt's crypto currency where one is known (locked or
 *   paid in), and `cryptoAmountReceived` the crypto received over every attempt in it;
 * - `paymentMethod`: invoice, x402 or both, from where the applied money came; `x402Payer` and
 *   `x402Transaction` of the last confirmed x402 payment;
 * - `updatedAt`: the time of the order's newest event; `paidAt`: when its one `order.paid`
 *   was made (null if none was).
 */

import type { EventLog } from "../core/events/event-log.ts";
import { firstQueuedAt } from "../core/events/outbox-store.ts";
import type { OrderSummary } from "../lib/api/merchant-ops.ts";
import { add, isPositive } from "../lib/money/decimal.ts";
import { type AdmittedFacts, serviceStatus } from "./ledger-view.ts";
import { type RefundRecord, readRefunds } from "./refunds/records.ts";
import { orderTotals, type PaymentTerms } from "./snapshot.ts";
import type { AttemptRow, OrderRow, OrderStore, PaymentRow } from "./store.ts";
import { x402Payments } from "./x402/payments-table.ts";

/** An attempt's crypto currency: locked or read, else the one a payment on it was made in. */
function codeOf(a: AttemptRow, payments: readonly PaymentRow[]): string | null {
  return a.currency?.code ?? payments.find((p) => p.attempt === a.number)?.cryptoCode ?? null;
}

/**
 * What the caller already read and computed in the same transaction (an invoice apply): the
 * attempts and refunds as the change leaves them and the order's totals then, so the summary
 * does not read and compute them again.
 */
export interface SummaryParts {
  attempts: readonly AttemptRow[];
  refunds: readonly RefundRecord[];
  totals: ReturnType<typeof orderTotals>;
  /**
   * When the order's first `order.paid` was queued as the change leaves it (null: none was),
   * when the caller holds it; read from the outbox when absent.
   */
  paidAt?: string | null;
  /** The facts of the invoice the change just admitted (`admitRead`), not read back. */
  admitted?: AdmittedFacts;
}

/**
 * The order's summary now (`known`: parts the caller holds, read in the same transaction).
 *
 * @example
 * orderSummary(store, log, order, terms).state; // "paid"
 */
export function orderSummary(
  store: OrderStore,
  log: EventLog,
  order: OrderRow,
  terms: PaymentTerms,
  known?: SummaryParts,
  updatedAt?: string,
): OrderSummary {
  const attempts = known?.attempts ?? store.attempts();
  const payments = store.payments();
  const totals = known?.totals ?? orderTotals(order, attempts, readRefunds(store.sql), terms);
  const current = attempts[attempts.length - 1];
  const code =
    [...attempts]
      .reverse()
      .map((a) => codeOf(a, payments))
      .find((c) => c !== null) ?? null;
  const received =
    code === null
      ? null
      : attempts
          .filter((a) => codeOf(a, payments) === code)
          .reduce((sum, a) => add(sum, a.cryptoReceived), "0");
  const byInvoice = attempts.some((a) => isPositive(a.fiatApplied));
  // Only an order that x402 money paid has a confirmed payment to name (no read otherwise).
  const byWallet = isPositive(order.walletPaid);
  const wallet = byWallet
    ? [...x402Payments.all(store.sql)].reverse().find((p) => p.status === "confirmed")
    : undefined;
  return {
    invoiceNumber: order.invoiceNumber,
    state: totals.state,
    amount: totals.amount,
    currency: order.currency,
    amountPaid: totals.paid,
    cryptoCurrencyCode: code,
    cryptoAmountReceived: received,
    lastInvoiceStatus: current ? serviceStatus(store.sql, current, known?.admitted) : null,
    attempts: attempts.length,
    createdAt: order.createdAt,
    updatedAt: updatedAt ?? log.lastAt() ?? order.createdAt,
    paidAt: known?.paidAt !== undefined ? known.paidAt : firstQueuedAt(store.sql, "order.paid"),
    paymentMethod:
      byInvoice && byWallet ? "both" : byWallet ? "x402" : byInvoice ? "invoice" : null,
    x402Payer: wallet?.payer ?? null,
    x402Transaction: wallet?.transaction ?? null,
  };
}
