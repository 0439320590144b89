/**
 * @module
 * Builds the `CheckoutSnapshot` the widget sees from an order's rows. Pure: the same rows
 * always give the same snapshot, which is what lets the event log replay it verbatim.
 */

import type {
  CheckoutSnapshot,
  OrderState,
  PaymentInstructions,
} from "../../packages/contract/src/http-api.ts";
import type { X402Settings } from "../core/config/x402-settings.ts";
import { add, cmp, div, formatFixed, isPositive, mul, sub } from "../lib/money/decimal.ts";
import { networkLabel } from "../lib/wallet/networks.ts";
import { walletUri } from "../lib/wallet/wallet-uri.ts";
import { refundHint } from "./refunds/hint.ts";
import { type RefundRecord, refundViews, stateWithRefunds } from "./refunds/records.ts";
import { ENDED } from "./status.ts";
import type { AttemptRow, OrderRow } from "./store.ts";
import type { X402PaymentRow } from "./x402/payments-table.ts";
import { paymentView } from "./x402/settlement-step.ts";
import { offerOf, x402Terms } from "./x402/x402-terms.ts";

/**
 * The merchant's payment terms beyond the order's amount: the tolerance within which a short
 * payment counts as paid (`PAYMENT_TOLERANCE_PERCENT`, BTCPay's `paymentTolerance`), and the
 * fiat's smallest invoice (`minInvoiceAmount`, null when unknown).
 */
export interface PaymentTerms {
  tolerancePercent: string;
  minInvoiceAmount: string | null;
}

/** No tolerance, no known minimum. */
export const NO_TERMS: PaymentTerms = { tolerancePercent: "0", minInvoiceAmount: null };

/** What the snapshot needs beyond the rows. */
export interface SnapshotContext {
  displayName: string;
  sandbox: boolean;
  mode: "in-page" | "hosted";
  seq: number;
  now: string;
  terms?: PaymentTerms;
  /**
   * The order's totals for exactly these rows, refunds and terms when the caller already
   * computed them (`orderTotals`): the snapshot then does not compute them again.
   */
  totals?: ReturnType<typeof orderTotals>;
  /**
   * Why a refund holds the order (quoted, not yet recorded), or null. While a refund of a
   * partial payment holds it, a `paid` state is not final: the refund may still close the
   * order as `refunded`, and a final snapshot ends every watcher's stream.
   */
  refundHold?: "overpaid" | "partially_paid" | null;
  /** The deployment's x402 settings (null: off) and the order's latest x402 payment. */
  x402?: { settings: X402Settings | null; latest: X402PaymentRow | null };
}

/**
 * Sum of fiat applied across attempts, and the order state it implies. Fiat amounts are
 * written with exactly the fiat's decimal places (`"49.90"`, `"0.00"`); every fiat amount in
 * the ledger already fits them (the ledger rounds down to them), so no rounding happens here.
 * With `refunds`, a not fully paid order that has a live refund is `refunded` (closed, nothing
 * due), and so is one whose live refund returned a partial payment, whatever arrived later.
 *
 * Tolerance rule: a short payment of at least `amount × (100 − tolerancePercent) ÷ 100` counts
 * as paid; the rest is reported as `shortfall` and nothing is due.
 */
export function orderTotals(
  order: OrderRow,
  attempts: readonly AttemptRow[],
  refunds: readonly RefundRecord[] = [],
  terms: PaymentTerms = NO_TERMS,
) {
  const fiat = (value: string) => formatFixed(value, order.fiatDecimalPlaces);
  // Invoices' money and the wallet's (x402, straight to the merchant's wallet) count alike.
  const paid = attempts.reduce((sum, a) => add(sum, a.fiatApplied), order.walletPaid);
  // Overpaid: each attempt's crypto excess, plus what attempts together paid beyond the order
  // (two attempts that both pay in full overpay by the second one; nothing is double counted:
  // an attempt's fiatApplied never exceeds its own amount).
  const excess = cmp(paid, order.amount) > 0 ? sub(paid, order.amount) : "0";
  const overpaid = attempts.reduce((sum, a) => add(sum, a.fiatOverpaid), excess);
  const threshold = div(mul(order.amount, sub("100", terms.tolerancePercent)), "100", 18, "up");
  const fullyPaid = cmp(paid, order.amount) >= 0;
  const withinTolerance = !fullyPaid && isPositive(paid) && cmp(paid, threshold) >= 0;
  const paymentState: OrderState =
    fullyPaid || withinTolerance ? "paid" : isPositive(paid) ? "partially_paid" : "unpaid";
  const state = stateWithRefunds(paymentState, refunds);
  // A refunded order is closed: it takes no further payment, so nothing is due.
  const due = state === "refunded" || fullyPaid || withinTolerance ? "0" : sub(order.amount, paid);
  const shortfall = withinTolerance ? sub(order.amount, paid) : "0";
  return {
    amount: fiat(order.amount),
    paid: fiat(paid),
    overpaid: fiat(overpaid),
    due: fiat(due),
    shortfall: fiat(shortfall),
    state,
  };
}

/**
 * The rest that cannot be paid through the checkout, or null: the order is partially paid,
 * its current attempt ended, and what is due is below the fiat's smallest invoice (a new
 * attempt for it would be refused by the service).
 *
 * @example
 * remainderBelowMinimum(attempts, totals, { tolerancePercent: "0", minInvoiceAmount: "1.00" });
 */
export function remainderBelowMinimum(
  attempts: readonly AttemptRow[],
  totals: { state: OrderState; due: string },
  terms: PaymentTerms,
): { reason: "remainder_below_minimum"; amountDue: string; minimum: string } | null {
  const attempt = attempts[attempts.length - 1];
  if (!attempt || totals.state !== "partially_paid" || !terms.minInvoiceAmount) return null;
  if (!(ENDED.has(attempt.status) || attempt.ended)) return null;
  if (cmp(totals.due, terms.minInvoiceAmount) >= 0) return null;
  return {
    reason: "remainder_below_minimum",
    amountDue: totals.due,
    minimum: terms.minInvoiceAmount,
  };
}

function instructions(attempt: AttemptRow, sandbox: boolean): PaymentInstructions | null {
  const { currency, address, cryptoExpected } = attempt;
  if (!currency || !address || !cryptoExpected) return null;
  const remaining =
    cmp(attempt.cryptoReceived, cryptoExpected) >= 0
      ? "0"
      : sub(cryptoExpected, attempt.cryptoReceived);
  const toSend = isPositive(remaining) ? remaining : cryptoExpected;
  return {
    cryptoCurrencyCode: currency.code,
    currencyName: currency.name,
    network: currency.network,
    networkName: networkLabel(currency.network),
    decimalPlaces: currency.decimalPlaces,
    amount: cryptoExpected,
    received: attempt.cryptoReceived,
    remaining,
    address,
    walletUri: walletUri({ currency, address, amount: toSend, sandbox }),
    refund: refundHint(currency, cryptoExpected, attempt.cryptoReceived),
    // In hosted mode the lock is the payer's choice on the service's page: its end is the
    // invoice's own expiresAt, as the read that brought the choice gave it.
    expiresAt: attempt.lockExpiresAt ?? attempt.expiresAt,
  };
}

/**
 * The snapshot for the order's current (latest) attempt.
 *
 * @example
 * const snap = buildSnapshot(store.order()!, store.attempts(), { displayName, sandbox, mode, seq, now });
 */
export function buildSnapshot(
  order: OrderRow,
  attempts: readonly AttemptRow[],
  ctx: SnapshotContext,
  refunds: readonly RefundRecord[] = [],
): CheckoutSnapshot {
  const attempt = attempts[attempts.length - 1];
  if (!attempt) throw new Error("an order always has at least one attempt");
  const terms = ctx.terms ?? NO_TERMS;
  const totals = ctx.totals ?? orderTotals(order, attempts, refunds, terms);
  const paid = totals.state === "paid";
  const underpaid = remainderBelowMinimum(attempts, totals, terms);
  const hold = ctx.refundHold ?? null;
  const settings = ctx.x402?.settings ?? null;
  const latest = ctx.x402?.latest ?? null;
  const walletTerms = x402Terms(settings, {
    currency: order.currency,
    due: totals.due,
    state: totals.state,
    refundHeld: hold !== null,
    latest,
  });
  return {
    id: order.checkoutId,
    kind: "invoice",
    invoiceNumber: order.invoiceNumber,
    displayName: ctx.displayName,
    description: order.description,
    amount: totals.amount,
    currency: order.currency,
    fiatDecimalPlaces: order.fiatDecimalPlaces,
    sandbox: ctx.sandbox,
    mode: ctx.mode,
    orderState: totals.state,
    amountPaid: totals.paid,
    amountDue: totals.due,
    amountOverpaid: totals.overpaid,
    amountShortfall: totals.shortfall,
    underpaid,
    attempt: {
      number: attempt.number,
      orderId: attempt.orderId,
      status: attempt.status,
      paymentPageUrl: attempt.paymentPageUrl,
      expiresAt: attempt.expiresAt,
      payment: instructions(attempt, ctx.sandbox),
    },
    canRetry:
      !paid &&
      !underpaid &&
      totals.state !== "refunded" &&
      // A refund in progress refuses retries (409 `order_refunded`) until it fails.
      hold === null &&
      (ENDED.has(attempt.status) || attempt.ended),
    final: paid && hold !== "partially_paid",
    refundAddress:
      order.refundCurrency && order.refundAddress
        ? { cryptoCurrencyCode: order.refundCurrency, address: order.refundAddress }
        : null,
    refunds: refundViews(refunds),
    returnUrl: order.returnUrl,
    x402: settings && walletTerms.ok ? offerOf(settings, walletTerms.requirements) : null,
    x402Payment: latest ? paymentView(latest) : null,
    seq: ctx.seq,
    updatedAt: ctx.now,
  };
}
