/**
 * @module
 * What one invoice read does to an order, as a pure function (`applyInvoiceRead`): given the
 * order's state as read in the lane and the service's invoice, it answers whether the read is
 * stale (older than the known facts, or a lock's replaced terms), or the attempt it leaves,
 * the payment to record, the merchant notifications and the event's words. The order object
 * (`order-object.ts`) only reads the state, writes the answer through the one apply sequence
 * (`core/events/apply-sequence.ts`) and publishes.
 *
 * Invariants (asserted at run time, `ledger-invariants.ts`): applied money never decreases,
 * an attempt applies at most its amount, and the order queues at most one `order.paid`.
 */

import type { CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import {
  type Facts,
  isOlder,
  type LockFact,
  paymentTerms,
  undoesLock,
} from "../core/converge/facts.ts";
import type { Notification } from "../core/events/outbox.ts";
import type { Invoice } from "../service/client.ts";
import { withInvoiceFacts } from "./attempts.ts";
import { applyInvoiceState } from "./ledger.ts";
import { assertLedgerStep, assertOnePaid } from "./ledger-invariants.ts";
import { notificationsFor } from "./notifications.ts";
import type { RefundRecord } from "./refunds/records.ts";
import { orderTotals, type PaymentTerms, remainderBelowMinimum } from "./snapshot.ts";
import type { AttemptRow, OrderRow, PaymentRow } from "./store.ts";

/** A status as the merchant reads it in the event log: `partially_paid` → "partially paid". */
export const inWords = (status: string) => status.replace(/_/g, " ");

/**
 * The progress facts of an invoice read (`core/converge/facts.ts`).
 *
 * @example
 * invoiceFacts(invoice); // { status: "paid", received: "0.0015" }
 */
export function invoiceFacts(invoice: Invoice): Facts {
  return { status: invoice.status, received: invoice.cryptoAmountReceived ?? "0" };
}

/** The order as the lane read it just before applying one invoice. */
export interface OrderState {
  order: OrderRow;
  /** Every attempt, oldest first; the read's own is among them. */
  attempts: readonly AttemptRow[];
  /** The attempt whose invoice was read. */
  attempt: AttemptRow;
  refunds: readonly RefundRecord[];
  terms: PaymentTerms;
  /** The invoice's known facts (null before its first read). */
  known: Facts | null;
  /** The last confirmed lock of the invoice (`core/converge/facts.ts` `afterLock`). */
  lock: LockFact | null;
  /** The catalogue entry of the invoice's crypto currency, when known. */
  currency: CryptoCurrency | null;
  /** Why a refund holds the order, or null. */
  hold: "overpaid" | "partially_paid" | null;
  /** True when the outbox already holds the order's `order.paid`. */
  paidQueued: boolean;
  now: string;
}

/** How the read is told in the event log; `quiet` reads append an event only on a change. */
export interface Recording {
  type: string;
  message: string;
  quiet?: boolean;
}

/** What one read does. */
export type InvoiceRead =
  /** Older than what is known (or undone by a lock): nothing changes; `event` is its words, or null. */
  | { kind: "stale"; event: string | null }
  | {
      kind: "applied";
      /** The attempt as the read leaves it. */
      attempt: AttemptRow;
      /** Money the read applied (to record), or null. */
      payment: PaymentRow | null;
      /** The merchant notifications to queue (a withheld `order.paid` left out). */
      notifications: Notification[];
      /** Every attempt after the read, and the order's totals then. */
      attempts: AttemptRow[];
      totals: ReturnType<typeof orderTotals>;
      /** The event's words. */
      event: string;
    };

/**
 * Applies one invoice read to the order's state: stale, or what it changes.
 *
 * @example
 * const read = applyInvoiceRead(state, invoice, { type: "invoice.read", message, quiet: true });
 * if (read.kind === "applied") store.saveAttempt(read.attempt);
 */
export function applyInvoiceRead(
  state: OrderState,
  invoice: Invoice,
  recording: Recording,
): InvoiceRead {
  const { order, attempt, refunds, terms, known, now } = state;
  const facts = invoiceFacts(invoice);
  // A read showing terms a confirmed lock replaced, with no progress since, predates the lock.
  const undoes =
    known !== null && undoesLock("invoice", facts, paymentTerms(invoice), known, state.lock);
  if (known && (undoes || isOlder("invoice", facts, known))) {
    // A lagging read: it changes nothing (not even facts it would fill).
    const after = undoes
      ? `${invoice.cryptoCurrencyCode}, since replaced by the shopper's choice`
      : `${inWords(invoice.status)}, already ${inWords(known.status)}`;
    const event = `${recording.message} (an out-of-date answer: ${after}; nothing changed)`;
    return { kind: "stale", event: recording.quiet ? null : event };
  }
  // Totals with refunds: a refunded order reports `refunded`, and late money never "pays" it.
  const before = orderTotals(order, state.attempts, refunds, terms);
  const underpaidBefore = remainderBelowMinimum(state.attempts, before, terms);
  const refreshed = withInvoiceFacts(attempt, invoice, state.currency, now);
  const balance = {
    status: attempt.status,
    fiatAmount: attempt.fiatAmount,
    cryptoApplied: attempt.cryptoApplied,
    fiatApplied: attempt.fiatApplied,
    fiatOverpaid: attempt.fiatOverpaid,
    ended: attempt.ended,
  };
  const effect = applyInvoiceState(
    balance,
    {
      // This read's own facts: a stale read is refused by the ledger, not mixed with newer ones.
      status: invoice.status,
      cryptoAmountExpected: refreshed.cryptoExpected,
      cryptoAmountReceived: invoice.cryptoAmountReceived ?? attempt.cryptoReceived,
    },
    order.fiatDecimalPlaces,
  );
  assertLedgerStep(balance, effect);
  const next: AttemptRow = { ...refreshed, ...effect.next };
  const unchanged =
    !effect.changed &&
    JSON.stringify({ ...next, updatedAt: "" }) === JSON.stringify({ ...attempt, updatedAt: "" });
  if (recording.quiet && unchanged) return { kind: "stale", event: null };
  const cryptoCode = next.currency?.code ?? invoice.cryptoCurrencyCode;
  const attempts = state.attempts.map((a) => (a.number === next.number ? next : a));
  const after = orderTotals(order, attempts, refunds, terms);
  const underpaid = remainderBelowMinimum(attempts, after, terms);
  const notes = notificationsFor({
    order,
    attempt: next,
    previousStatus: attempt.status,
    statusChanged: effect.changed && next.status !== attempt.status,
    payment: effect.payment,
    cryptoCurrencyCode: cryptoCode,
    before,
    after,
    underpaid: underpaid && !underpaidBefore ? underpaid : null,
    now,
  });
  // A refund of the partial payment holds the order (quoted, not yet recorded): it may yet
  // close the order, so `order.paid` waits for its fate. Recorded live, the order ends
  // `refunded` and the merchant never hears "paid"; released, the order sends it then.
  const withheld = state.hold === "partially_paid";
  const notifications = notes.filter((note) => !(withheld && note.type === "order.paid"));
  assertOnePaid(
    state.paidQueued,
    notifications.map((note) => note.type),
  );
  const payment = effect.payment
    ? {
        attempt: next.number,
        status: next.status,
        cryptoCode,
        cryptoAmount: effect.payment.cryptoAmount,
        fiatAmount: effect.payment.fiatAmount,
        at: now,
      }
    : null;
  // Merchant's words: an answer that repeats the known status adds nothing to say.
  const event =
    effect.changed || invoice.status === attempt.status
      ? recording.message
      : `${recording.message} (the order keeps ${inWords(attempt.status)})`;
  return { kind: "applied", attempt: next, payment, notifications, attempts, totals: after, event };
}
