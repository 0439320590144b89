/**
 * @module
 * The order ledger's invariants, asserted at run time on every applied invoice state
 * (`core/converge/invariant.ts` throws, naming the one that broke):
 *
 * - `applied-money-never-decreases`: an attempt's applied crypto and fiat only grow, and a
 *   recorded payment is exactly that growth (never negative);
 * - `applied-within-amount`: an attempt never applies more fiat than its own amount. The
 *   merchant's tolerance only lets a short payment count as paid; it never lets more be
 *   applied, so the bound is the amount itself (the tightest form of "applied ≤ amount +
 *   tolerance"); an overpayment is recorded apart, as `fiatOverpaid`;
 * - `one-order-paid`: an order queues at most one `order.paid` notification in its life.
 */

import { assertInvariant } from "../core/converge/invariant.ts";
import { add, cmp, isPositive, sub } from "../lib/money/decimal.ts";
import type { AttemptBalance, AttemptEffect } from "./ledger.ts";

/**
 * Asserts what one applied invoice state did to one attempt (`ledger.ts` `applyInvoiceState`).
 *
 * @example
 * const effect = applyInvoiceState(balance, facts, 2);
 * assertLedgerStep(balance, effect); // throws InvariantBroken on a bug
 */
export function assertLedgerStep(before: AttemptBalance, effect: AttemptEffect): void {
  const after = effect.next;
  const where = () => `attempt of ${before.fiatAmount}`;
  assertInvariant(
    cmp(after.cryptoApplied, before.cryptoApplied) >= 0 &&
      cmp(after.fiatApplied, before.fiatApplied) >= 0,
    "applied-money-never-decreases",
    () =>
      `${where()}: crypto ${before.cryptoApplied} → ${after.cryptoApplied}, fiat ${before.fiatApplied} → ${after.fiatApplied}`,
  );
  const payment = effect.payment ?? { cryptoAmount: "0", fiatAmount: "0" };
  assertInvariant(
    !isPositive(sub("0", payment.cryptoAmount)) &&
      !isPositive(sub("0", payment.fiatAmount)) &&
      cmp(add(before.cryptoApplied, payment.cryptoAmount), after.cryptoApplied) === 0 &&
      cmp(add(before.fiatApplied, payment.fiatAmount), after.fiatApplied) === 0,
    "applied-money-never-decreases",
    () =>
      `${where()}: payment ${payment.cryptoAmount} / ${payment.fiatAmount} for crypto ${before.cryptoApplied} → ${after.cryptoApplied}, fiat ${before.fiatApplied} → ${after.fiatApplied}`,
  );
  assertInvariant(
    cmp(after.fiatApplied, after.fiatAmount) <= 0,
    "applied-within-amount",
    () => `${where()}: ${after.fiatApplied} applied`,
  );
}

/**
 * Asserts that queueing `types` keeps the order at one `order.paid`: `queued` says whether
 * the order's outbox already holds one.
 *
 * @example
 * assertOnePaid(outboxHasPaid(sql), notes.map((n) => n.type));
 */
export function assertOnePaid(queued: boolean, types: readonly string[]): void {
  const paid = types.filter((t) => t === "order.paid").length;
  assertInvariant(
    paid === 0 || (!queued && paid === 1),
    "one-order-paid",
    () => `${paid} more order.paid, ${queued ? "one already queued" : "none queued before"}`,
  );
}
