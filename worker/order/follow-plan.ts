/**
 * @module
 * How an order follows one attempt's invoice after a read (`core/converge/followed.ts`
 * `FollowPlan`), as a pure function: until it is final, and until its expiry + the late-payment
 * window (24 h); a paid invoice whose currency the catalogue could not name yet is read again
 * until it can.
 */
import type { FollowPlan } from "../core/converge/followed.ts";
import { LATE_PAYMENT_MS } from "../core/converge/schedule.ts";
import { FINAL } from "./status.ts";
import type { AttemptRow, OrderRow } from "./store.ts";

/**
 * The follow plan of `attempt`'s invoice; `invoiceCode` is the currency the read invoice names
 * (null when none), `watched` whether a shopper watches now.
 *
 * @example
 * admitRead(sql, "invoice", id, facts, invoiceFollowPlan(order, attempt, "BTC", Date.now(), false));
 */
export function invoiceFollowPlan(
  order: OrderRow,
  attempt: AttemptRow,
  invoiceCode: string | null,
  now: number,
  watched: boolean,
): FollowPlan {
  const expiry = attempt.expiresAt ? Date.parse(attempt.expiresAt) : Number.NaN;
  const keepUntil = Number.isFinite(expiry)
    ? expiry + LATE_PAYMENT_MS
    : Date.parse(order.createdAt) + 7 * LATE_PAYMENT_MS;
  // Paid, but its currency unnamed (the list was unreadable when it was read): read again.
  const unnamed = invoiceCode !== null && attempt.currency === null;
  return { now, follow: !FINAL.has(attempt.status) || unnamed, keepUntil, watched };
}
