/**
 * @module
 * What an order does for its refunds (the saga itself lives in `payout/refunds/`): the
 * shopper's refund address, beginning a refund (its hold), recording a committed refund or a
 * later status of its withdrawal, and abandoning one that never reached the service.
 *
 * Invariants:
 * - beginning, recording and abandoning run inside the object's lane: no retry or currency
 *   lock slips in between a refund's check and its commit;
 * - every change goes through the one apply sequence, with an event only when it changed
 *   something; a released hold queues the `order.paid` it withheld (`notifications.ts`
 *   `owedPaid`);
 * - reports are idempotent: the same report twice changes nothing.
 */

import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import type { Notification } from "../core/events/outbox.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import { owedPaid } from "./notifications.ts";
import type { OrderHost } from "./order-host.ts";
import { refundFacts } from "./refund-facts.ts";
import { refundAddressChange } from "./refunds/address.ts";
import { type RefundStart, releaseHold, takeHold } from "./refunds/hold.ts";
import {
  isLive,
  liveRefund,
  type RefundRecord,
  readRefunds,
  writeRefund,
} from "./refunds/records.ts";

const NO_ORDER = () => failure(404, "not_found", "No such order.");

/**
 * Stores the shopper's refund address (validated by the route); frozen once a refund is in
 * flight, throttled per checkout (`refunds/address.ts`).
 *
 * @example
 * return saveRefundAddress(host, "TRX", "T…");
 */
export async function saveRefundAddress(
  host: OrderHost,
  cryptoCurrencyCode: string,
  address: string,
): Promise<Outcome<CheckoutSnapshot>> {
  const { store } = host;
  const order = host.hasSchema() && store.currentAttempt() ? store.order() : null;
  if (!order) return failure(404, "not_found", "No such checkout.");
  const saved =
    order.refundCurrency && order.refundAddress
      ? { cryptoCurrencyCode: order.refundCurrency, address: order.refundAddress }
      : null;
  const asked = { cryptoCurrencyCode, address };
  const may = refundAddressChange(store.sql, host.kv, saved, asked, Date.now());
  if (!may.ok) return may;
  if (may.value === "unchanged") return success(host.journal.current());
  store.setRefundAddress(cryptoCurrencyCode, address);
  const message = `refund address for ${cryptoCurrencyCode} saved`;
  return success(host.journal.record("refund_address.set", message));
}

/**
 * Begins a refund (inside the lane): the order's live refund when it has one, else checks what
 * the order allows and takes the hold in one step (`refunds/hold.ts`). 409 `attempt_open`
 * while a payment attempt is being opened.
 *
 * @example
 * return lane.run(async () => beginRefund(host));
 */
export function beginRefund(host: OrderHost): Outcome<RefundStart> {
  const { store } = host;
  const order = host.hasSchema() ? store.order() : null;
  if (!order) return NO_ORDER();
  const live = liveRefund(store.sql);
  if (live) return success({ kind: "live", refund: live });
  if (host.opening.active) {
    return failure(
      409,
      "attempt_open",
      "A payment attempt is being opened for this order; refund once it is settled or ended.",
    );
  }
  const facts = refundFacts(store, order, host.journal.terms());
  const names = { prefix: host.config().ORDER_ID_PREFIX, invoiceNumber: order.invoiceNumber };
  return takeHold(store.sql, facts, names, new Date().toISOString());
}

/**
 * Records a committed refund or a later status of its withdrawal (inside the lane); a refund
 * that failed or was cancelled returned nothing, so its hold is released.
 *
 * @example
 * return lane.run(() => recordRefund(host, refund));
 */
export async function recordRefund(
  host: OrderHost,
  refund: RefundRecord,
): Promise<Outcome<{ changed: boolean }>> {
  const { store } = host;
  if (!host.hasSchema() || !store.order()) return NO_ORDER();
  const now = new Date().toISOString();
  let changed = false;
  const event = await commitChange(host, "refund.status", {
    write: () => {
      changed = writeRefund(store.sql, refund, now);
      const released = changed && !isLive(refund) && releaseHold(store.sql, refund.orderId);
      return released ? owedPaidNow(host, now) : [];
    },
    message: () =>
      changed
        ? `refund ${refund.orderId}: ${refund.amount} ${refund.cryptoCurrencyCode} ${refund.status}`
        : null,
  });
  return success({ changed: event !== null });
}

/**
 * Ends a refund that definitely never reached the service (inside the lane): its hold is
 * released unless that refund was recorded live meanwhile.
 *
 * @example
 * return lane.run(() => abandonRefund(host, "cc-1001-r1"));
 */
export async function abandonRefund(
  host: OrderHost,
  orderId: string,
): Promise<Outcome<{ released: boolean }>> {
  if (!host.hasSchema()) return NO_ORDER();
  let released = false;
  const event = await commitChange(host, "refund.abandoned", {
    write: () => {
      released = releaseHold(host.store.sql, orderId);
      return released ? owedPaidNow(host, new Date().toISOString()) : [];
    },
    // Watchers learn the hold ended (retry allowed again, or a paid state now final).
    message: () => (released ? `refund ${orderId} never reached the service` : null),
  });
  return success({ released: event !== null });
}

/**
 * A change the order makes itself through the one apply sequence: `write` answers the
 * notifications to queue, `message` the event's words (null: nothing changed, no event).
 */
function commitChange(
  host: OrderHost,
  type: string,
  change: { write: () => readonly Notification[]; message: () => string | null },
) {
  const { journal } = host;
  return host.applyChange(
    {
      stale: false,
      record: () => {},
      write: change.write,
      append: () => {
        const message = change.message();
        return message === null ? null : journal.append(type, message);
      },
    },
    (event) => journal.publish(event, type),
  );
}

/** The order's owed `order.paid` after a hold was released (`notifications.ts` `owedPaid`). */
function owedPaidNow(host: OrderHost, now: string): readonly Notification[] {
  const { store } = host;
  const paidQueued = host.outbox.has("order.paid");
  const refunds = readRefunds(store.sql);
  return owedPaid(store.order()!, store.attempts(), refunds, host.journal.terms(), paidQueued, now);
}
