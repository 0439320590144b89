/**
 * @module
 * Which merchant notifications an applied invoice state produces (the gateway module's status table):
 * every status change is reported; money applied is reported with exact amounts; the order
 * turning paid is reported exactly once.
 */

import type { OrderState } from "../../packages/contract/src/http-api.ts";
import { type Notification, notification } from "../core/events/outbox.ts";
import { formatFixed } from "../lib/money/decimal.ts";
import { assertOnePaid } from "./ledger-invariants.ts";
import type { RefundRecord } from "./refunds/records.ts";
import { orderTotals, type PaymentTerms } from "./snapshot.ts";
import type { AttemptRow, OrderRow } from "./store.ts";

interface Totals {
  amount: string;
  paid: string;
  overpaid: string;
  due: string;
  shortfall: string;
  state: OrderState;
}

/**
 * The way a payment came: an invoice of the service (its balance), or x402 (the payer's wallet
 * straight to the merchant's, with the payer and the transaction).
 */
export type PaymentVia =
  | { paymentMethod: "invoice" }
  | { paymentMethod: "x402"; payer: string; transaction: string | null; network: string };

/** Everything one applied state tells the merchant. */
export function notificationsFor(input: {
  order: OrderRow;
  attempt: AttemptRow;
  previousStatus: string;
  statusChanged: boolean;
  payment: { cryptoAmount: string; fiatAmount: string } | null;
  /** The crypto paid in: the attempt's catalogue currency, else the invoice's (hosted mode). */
  cryptoCurrencyCode: string | null;
  before: Totals;
  after: Totals;
  /** Set when this state left a rest below the fiat's minimum invoice (newly). */
  underpaid?: { amountDue: string; minimum: string } | null;
  now: string;
  /** How the money came (default: the attempt's invoice). */
  via?: PaymentVia;
}): Notification[] {
  const { order, attempt, after, now } = input;
  const via = input.via ?? { paymentMethod: "invoice" };
  const base = {
    invoiceNumber: order.invoiceNumber,
    orderId: attempt.orderId,
    attempt: attempt.number,
    status: attempt.status,
    orderState: after.state,
    amount: after.amount,
    currency: order.currency,
    amountPaid: after.paid,
    amountDue: after.due,
  };
  const out: Notification[] = [];
  const note = (type: Notification["type"], data: Record<string, unknown>) =>
    out.push(notification(type, now, { ...base, ...data }));
  if (input.statusChanged) note("order.status_changed", { previousStatus: input.previousStatus });
  if (input.payment) {
    note("order.payment_applied", {
      ...via,
      cryptoCurrencyCode: input.cryptoCurrencyCode,
      cryptoAmount: input.payment.cryptoAmount,
      fiatAmount: formatFixed(input.payment.fiatAmount, order.fiatDecimalPlaces),
      settlement: attempt.settlement,
    });
  }
  if (input.before.state !== "paid" && after.state === "paid") {
    note("order.paid", {
      amountOverpaid: after.overpaid,
      amountShortfall: after.shortfall,
      ...(input.payment ? via : {}),
    });
  }
  if (input.underpaid) {
    // The shopper cannot pay the rest here: the merchant refunds or accepts the order.
    note("order.underpaid", {
      reason: "remainder_below_minimum",
      minInvoiceAmount: input.underpaid.minimum,
    });
  }
  return out;
}

/**
 * After a refund hold was released (the refund failed, was cancelled or never reached the
 * service): the order's one `order.paid`, if it is paid now and none was ever queued
 * (`paidQueued`; it was withheld while the hold lasted, or money landed while a live refund
 * made it `refunded`). Empty otherwise.
 *
 * @example
 * const notes = owedPaid(order, attempts, readRefunds(sql), terms, outboxHas(sql, "order.paid"), now);
 */
export function owedPaid(
  order: OrderRow,
  attempts: readonly AttemptRow[],
  refunds: readonly RefundRecord[],
  terms: PaymentTerms,
  paidQueued: boolean,
  now: string,
): Notification[] {
  if (paidQueued) return [];
  const after = orderTotals(order, attempts, refunds, terms);
  if (after.state !== "paid") return [];
  const attempt = attempts[attempts.length - 1]!;
  const notes = notificationsFor({
    order,
    attempt,
    previousStatus: attempt.status,
    statusChanged: false,
    payment: null,
    cryptoCurrencyCode: attempt.currency?.code ?? null,
    before: { ...after, state: "partially_paid" },
    after,
    now,
  });
  assertOnePaid(
    false,
    notes.map((note) => note.type),
  );
  return notes;
}
