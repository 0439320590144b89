/**
 * @module
 * The merchant's view of an order (`GET /v1/orders/:invoiceNumber`): state, exact amounts,
 * attempts, refunds (each with its address, currency, amount, status and withdrawal id),
 * payments, the event log and the notification outbox.
 *
 * Each attempt's `status` is the service's: the newest status ever read of its invoice
 * (`core/converge/followed.ts`). The ledger's own rows may say `partially_paid` + `ended` for an
 * invoice the service expired after part of the money arrived (`ledger.ts` books that money
 * like a partial payment); the merchant still sees `expired`, with the crypto received and
 * the fiat applied beside it.
 */

import type { InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import type { Facts } from "../core/converge/facts.ts";
import { knownFacts } from "../core/converge/followed.ts";
import { INVOICE_RANK } from "../core/converge/status-rank.ts";
import type { EventLog } from "../core/events/event-log.ts";
import { outboxRows } from "../core/events/outbox-store.ts";
import { formatFixed } from "../lib/money/decimal.ts";
import { readRefunds, refundLedgerViews } from "./refunds/records.ts";
import { NO_TERMS, orderTotals, type PaymentTerms } from "./snapshot.ts";
import type { AttemptRow, OrderRow, OrderStore } from "./store.ts";
import { x402Payments } from "./x402/payments-table.ts";
import { paymentView } from "./x402/settlement-step.ts";

/** Reads the ledger of an order. */
export function readLedger(
  store: OrderStore,
  log: EventLog,
  order: OrderRow,
  terms: PaymentTerms = NO_TERMS,
) {
  const attempts = store.attempts();
  const refunds = readRefunds(store.sql);
  const totals = orderTotals(order, attempts, refunds, terms);
  const fiat = (value: string) => formatFixed(value, order.fiatDecimalPlaces);
  return {
    invoiceNumber: order.invoiceNumber,
    checkoutId: order.checkoutId,
    state: totals.state,
    amount: totals.amount,
    currency: order.currency,
    amountPaid: totals.paid,
    amountDue: totals.due,
    amountOverpaid: totals.overpaid,
    amountShortfall: totals.shortfall,
    customerId: order.customerId,
    refundAddress:
      order.refundAddress && order.refundCurrency
        ? { cryptoCurrencyCode: order.refundCurrency, address: order.refundAddress }
        : null,
    attempts: attempts.map((a) => ({
      number: a.number,
      orderId: a.orderId,
      invoiceId: a.invoiceId,
      status: serviceStatus(store.sql, a),
      ended: a.ended,
      fiatAmount: fiat(a.fiatAmount),
      cryptoCurrencyCode: a.currency?.code ?? null,
      cryptoExpected: a.cryptoExpected,
      cryptoReceived: a.cryptoReceived,
      fiatApplied: fiat(a.fiatApplied),
      fiatOverpaid: fiat(a.fiatOverpaid),
      settlement: a.settlement,
    })),
    refunds: refundLedgerViews(refunds),
    payments: store.payments().map((p) => ({ ...p, fiatAmount: fiat(p.fiatAmount) })),
    log: log.entries(),
    notifications: outboxRows(store.sql),
    x402Payments: x402Payments.all(store.sql).map(paymentView),
    createdAt: order.createdAt,
  };
}

/**
 * The service's status of an attempt's invoice; the ledger's own for an object that kept no
 * facts. `admitted`: the facts of one invoice the caller just wrote (not read back).
 */
export function serviceStatus(
  sql: SqlStorage,
  a: AttemptRow,
  admitted?: AdmittedFacts,
): InvoiceStatus {
  const facts = !a.invoiceId
    ? null
    : admitted?.invoiceId === a.invoiceId
      ? admitted.facts
      : knownFacts(sql, "invoice", a.invoiceId);
  return facts && isInvoiceStatus(facts.status) ? facts.status : a.status;
}

const isInvoiceStatus = (status: string): status is InvoiceStatus =>
  Object.hasOwn(INVOICE_RANK, status);

/** The facts of invoice `invoiceId` as the caller just stored them (`admitRead`). */
export interface AdmittedFacts {
  invoiceId: string;
  facts: Facts;
}

/** The ledger's JSON shape. */
export type OrderLedger = ReturnType<typeof readLedger>;
