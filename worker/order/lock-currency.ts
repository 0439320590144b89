/**
 * @module
 * Locking a crypto currency on an order's current attempt (in-page mode): what a lock asks of
 * the service (`lockPlan`, pure), the call and its answer applied as a read, the lock fact
 * that keeps a lagging read from bringing the replaced terms back, and the switch to the
 * service's page when the service has no currency lock.
 *
 * Invariants:
 * - runs inside the object's lane: locks of one attempt never race;
 * - a lock for the currency already locked (and confirmed) calls nothing; others are
 *   throttled per checkout (`lock-throttle.ts`) and per client across its checkouts (the
 *   route's `LOCK_RATE_LIMIT`);
 * - the first lock of an attempt is part of opening it (the budget's `interactive` lane); a
 *   change of a currency already locked is a re-lock (`relock`: behind opens, and within the
 *   client's share of the budget, `core/budget/shares.ts`);
 * - the lock is marked unconfirmed before the call: an answer lost, or an object reset before
 *   the answer is applied, leaves the mark (and an uncertain failure brings the invoice's
 *   next read forward);
 * - the currency, amount and address shown are the invoice's the service answers.
 */

import type { CheckoutSnapshot, CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import type { PaymentMode } from "../core/config/mode-decision.ts";
import { switchToHosted } from "../core/config/payment-mode.ts";
import { upstreamFor } from "../core/config/upstream.ts";
import { afterLock, type LockFact, paymentTerms } from "../core/converge/facts.ts";
import { hurryReads } from "../core/converge/followed.ts";
import { CATCH_UP_MS } from "../core/converge/schedule.ts";
import { takeSlot } from "../core/events/throttle.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { Invoice } from "../service/client.ts";
import { CurrencyLockUnsupportedError, lockInvoiceCurrency } from "../service/currency-lock.ts";
import { isUncertainFailure, upstreamFailure } from "../service/upstream-failure.ts";
import { applyInvoice } from "./apply-read.ts";
import { lockRefusal } from "./lock-refusal.ts";
import { CURRENCY_LOCKS } from "./lock-throttle.ts";
import type { OrderHost } from "./order-host.ts";
import { orderTotals } from "./snapshot.ts";
import type { AttemptRow } from "./store.ts";

/** What a lock does before any call: refused, nothing (already locked), or call the service. */
export type LockPlan =
  | { kind: "refused"; outcome: Outcome<never> }
  | { kind: "unchanged" }
  | { kind: "call" };

/**
 * What a lock of `currency` on `attempt` does before asking the service.
 *
 * @example
 * lockPlan(attempt, { paid: false, mode: "in-page", unconfirmed: false }, btc); // { kind: "call" }
 */
export function lockPlan(
  attempt: AttemptRow,
  order: { paid: boolean; mode: PaymentMode; unconfirmed: boolean },
  currency: Pick<CryptoCurrency, "code">,
): LockPlan {
  // Paid by another attempt (late money on an ended one): no address for this one is offered.
  if (order.paid)
    return { kind: "refused", outcome: failure(409, "order_paid", "This order is already paid.") };
  const refused = lockRefusal(attempt, order.mode);
  if (refused) return { kind: "refused", outcome: refused };
  const locked =
    attempt.currency?.code === currency.code && attempt.address && attempt.cryptoExpected;
  return !order.unconfirmed && locked ? { kind: "unchanged" } : { kind: "call" };
}

/**
 * The lock fact after the service answered a lock: the answer is newer than every terms it
 * replaced (`core/converge/facts.ts` `afterLock`); null when the answer shows no terms.
 *
 * @example
 * const fact = lockFactAfter(previous, attempt, invoice); if (fact) settings.setLockFact(id, fact);
 */
export function lockFactAfter(
  previous: LockFact | null,
  attempt: Pick<AttemptRow, "currency" | "cryptoExpected" | "address">,
  answer: Invoice,
): LockFact | null {
  const answered = paymentTerms(answer);
  if (!answered) return null;
  const before = paymentTerms({
    cryptoCurrencyCode: attempt.currency?.code ?? null,
    cryptoAmountExpected: attempt.cryptoExpected,
    address: attempt.address,
  });
  return afterLock(previous, before, answered);
}

/**
 * The budget lane of a lock on `attempt`: its first lock opens it, any later one is a re-lock.
 *
 * @example
 * lockLane({ currency: null }); // "interactive"
 */
export function lockLane(attempt: Pick<AttemptRow, "currency">): "interactive" | "relock" {
  return attempt.currency ? "relock" : "interactive";
}

/**
 * Locks `currency` on the current attempt (inside the lane) and answers the snapshot; the call
 * counts in `client`'s share of the upstream budget.
 *
 * @example
 * return lane.run(() => lockCurrency(host, currency, client));
 */
export async function lockCurrency(
  host: OrderHost,
  currency: CryptoCurrency,
  client?: string,
): Promise<Outcome<CheckoutSnapshot>> {
  const { store, settings, journal } = host;
  const attempt = host.hasSchema() ? store.currentAttempt() : null;
  if (!attempt) return failure(404, "not_found", "No such checkout.");
  const refunded = journal.refundedGuard();
  if (refunded) return refunded;
  const paid = orderTotals(store.order()!, store.attempts(), [], journal.terms()).state === "paid";
  const unconfirmed = settings.lockUnconfirmed(attempt.invoiceId);
  const plan = lockPlan(attempt, { paid, mode: journal.mode(), unconfirmed }, currency);
  if (plan.kind === "refused") return plan.outcome;
  if (plan.kind === "unchanged") return success(journal.current());
  const slot = takeSlot(host.kv, CURRENCY_LOCKS, Date.now());
  if (!slot.ok) {
    return failure(
      429,
      "rate_limited",
      `Too many currency changes for this checkout; try again in ${slot.retryAfter} s.`,
      slot.retryAfter,
    );
  }
  settings.markLockUnconfirmed(attempt.invoiceId);
  try {
    const upstream = upstreamFor(host.config(), { priority: lockLane(attempt), client });
    const invoice = await lockInvoiceCurrency(upstream, {
      invoiceId: attempt.invoiceId,
      cryptoCurrencyCode: currency.code,
    });
    const id = attempt.invoiceId;
    store.saveAttempt({ ...store.attemptByInvoiceId(id)!, lockExpiresAt: invoice.expiresAt });
    const message = `shopper chose ${invoice.cryptoCurrencyCode} (service order ${attempt.orderId})`;
    const snapshot = await applyInvoice(
      host,
      invoice,
      { type: "currency.locked", message },
      currency,
    );
    const fact = lockFactAfter(settings.lastLockFact(id), attempt, invoice);
    if (fact) settings.setLockFact(id, fact);
    settings.confirmLock();
    return success(snapshot);
  } catch (error) {
    if (error instanceof CurrencyLockUnsupportedError) return success(await toHosted(host));
    if (isUncertainFailure(error)) {
      // The service may have locked this currency without us hearing it (the mark stays): the
      // invoice is read back soon.
      hurryReads(store.sql, Date.now() + CATCH_UP_MS, { kind: "invoice", id: attempt.invoiceId });
      await host.arm();
    }
    return upstreamFailure(error, host.logger());
  }
}

/**
 * The service answered a lock as an unknown route: this order, and the deployment, continue
 * on the service's payment page. The shopper gets the hosted snapshot, never an error.
 */
async function toHosted(host: OrderHost): Promise<CheckoutSnapshot> {
  host.settings.setMode("hosted");
  const snapshot = host.journal.record(
    "mode.hosted",
    "the service has no currency lock: continue on its payment page",
  );
  host.logger().warn("payment_mode.switched", { to: "hosted" });
  await switchToHosted(host.env, host.config());
  return snapshot;
}
