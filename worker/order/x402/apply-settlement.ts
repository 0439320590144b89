/**
 * @module
 * Commits one fact about an x402 payment to the order (`settlement-step.ts` says what it
 * changes), through the one apply sequence: the payment's row, the money it applies (once,
 * when `confirmed`: `order_info.wallet_paid` grows by its fiat), the merchant's notifications
 * (`order.payment_applied` and, when it pays the order, the one `order.paid`, both naming
 * x402, the payer and the transaction) and the event watchers see, in one transaction.
 *
 * Invariants (asserted): money is applied only by a `confirmed` fact, only once per payment
 * (`applied`), and the order's applied money never decreases; at most one `order.paid`.
 */

import type { CheckoutSnapshot } from "../../../packages/contract/src/http-api.ts";
import { assertInvariant } from "../../core/converge/invariant.ts";
import type { Appended } from "../../core/events/live-events.ts";
import { firstQueuedAt } from "../../core/events/outbox-store.ts";
import { add, cmp, formatFixed } from "../../lib/money/decimal.ts";
import { assertOnePaid } from "../ledger-invariants.ts";
import { notificationsFor } from "../notifications.ts";
import type { OrderHost } from "../order-host.ts";
import { readHold } from "../refunds/hold.ts";
import { readRefunds } from "../refunds/records.ts";
import { orderTotals } from "../snapshot.ts";
import { type X402PaymentRow, x402Payments } from "./payments-table.ts";
import { type SettlementFact, settlementStep } from "./settlement-step.ts";

/** How the fact is told in the event log. */
const MESSAGES: Record<X402PaymentRow["status"], string> = {
  settling: "a wallet payment was sent to the facilitator",
  unknown: "the facilitator's answer to a wallet payment was lost; reading the service",
  submitted: "a wallet payment was broadcast; waiting for its confirmation",
  confirmed: "a wallet payment was confirmed",
  failed: "a wallet payment failed; nothing moved",
};

/**
 * Applies `fact` to the payment with nonce `nonce`; answers the snapshot after it (the current
 * one when the fact changed nothing) and whether it changed anything.
 *
 * @example
 * await applySettlementFact(host, nonce, { status: "confirmed", transaction, confirmedAt });
 */
export async function applySettlementFact(
  host: OrderHost,
  nonce: string,
  fact: SettlementFact,
): Promise<{ snapshot: CheckoutSnapshot; changed: boolean; row: X402PaymentRow | null }> {
  const { store, journal } = host;
  const sql = store.sql;
  const row = x402Payments.byNonce(sql, nonce);
  const now = new Date().toISOString();
  const next = row ? settlementStep(row, fact, now) : null;
  if (!row || !next) return { snapshot: journal.current(), changed: false, row };
  return commitPaymentRow(host, next, row);
}

/**
 * Writes a payment's new row (and, when it newly confirms, its money and notifications)
 * through the apply sequence. `before` is the row as it was (null: a new payment).
 *
 * @example
 * await commitPaymentRow(host, { ...row, status: "unknown" }, row);
 */
export async function commitPaymentRow(
  host: OrderHost,
  next: X402PaymentRow,
  before: X402PaymentRow | null,
): Promise<{ snapshot: CheckoutSnapshot; changed: boolean; row: X402PaymentRow }> {
  const { store, journal } = host;
  const sql = store.sql;
  const type = `x402.${next.status}`;
  const applies = next.status === "confirmed" && !next.applied;
  const event = await host.applyChange<Appended<CheckoutSnapshot>>(
    {
      stale: false,
      record: () => {},
      write: () => {
        const row = applies ? { ...next, applied: true } : next;
        x402Payments.save(sql, row);
        if (!applies) return [];
        return applyMoney(host, row, before);
      },
      append: () => journal.append(type, messageOf(next)),
    },
    (appended) => journal.publish(appended, type),
  );
  return {
    snapshot: event ? event.snapshot : journal.current(),
    changed: true,
    row: x402Payments.byNonce(sql, next.nonce) ?? next,
  };
}

function messageOf(row: X402PaymentRow): string {
  const who = `${row.fiatAmount} USD from ${row.payer}`;
  const tx = row.transaction ? ` (transaction ${row.transaction})` : "";
  const why = row.status === "failed" && row.errorReason ? `: ${row.errorReason}` : "";
  return `${MESSAGES[row.status]}: ${who}${tx}${why}`;
}

/** Adds a confirmed payment's fiat to the order (inside the transaction); its notifications. */
function applyMoney(host: OrderHost, row: X402PaymentRow, before: X402PaymentRow | null) {
  const { store, journal } = host;
  const sql = store.sql;
  assertInvariant(
    row.status === "confirmed" && !(before?.applied ?? false),
    "an x402 payment's money is applied once, when confirmed",
    () => `payment ${row.nonce} is ${row.status}, applied before: ${before?.applied ?? false}`,
  );
  const order = store.order();
  if (!order) throw new Error("no order");
  const attempts = store.attempts();
  const refunds = readRefunds(sql);
  const terms = journal.terms();
  const walletPaid = formatFixed(add(order.walletPaid, row.fiatAmount), order.fiatDecimalPlaces);
  assertInvariant(
    cmp(walletPaid, order.walletPaid) > 0,
    "applied money never decreases",
    () => `wallet paid ${order.walletPaid} -> ${walletPaid}`,
  );
  store.setWalletPaid(walletPaid);
  const beforeTotals = orderTotals(order, attempts, refunds, terms);
  const after = orderTotals({ ...order, walletPaid }, attempts, refunds, terms);
  const attempt = attempts[attempts.length - 1];
  if (!attempt) throw new Error("an order always has an attempt");
  const notes = notificationsFor({
    order,
    attempt,
    previousStatus: attempt.status,
    statusChanged: false,
    payment: { cryptoAmount: formatFixed(row.fiatAmount, 6), fiatAmount: row.fiatAmount },
    cryptoCurrencyCode: "USDC",
    before: beforeTotals,
    after,
    now: new Date().toISOString(),
    via: {
      paymentMethod: "x402",
      payer: row.payer,
      transaction: row.transaction,
      network: row.network,
    },
  });
  // A refund of a partial payment holds `order.paid` until its fate is known (as for invoices).
  const withheld = readHold(sql)?.reason === "partially_paid";
  const out = notes.filter((note) => !(withheld && note.type === "order.paid"));
  assertOnePaid(
    firstQueuedAt(sql, "order.paid") !== null,
    out.map((note) => note.type),
  );
  return out;
}
