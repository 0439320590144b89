/**
 * @module Order fixtures of the worker tests: a checkout with USDT (TRC-20) locked, and an order
 * the sandbox has paid (in full, over or in part) with its webhooks delivered and the shopper's
 * refund address set, and a refund whose withdrawal failed. Each fixture checks its own steps, so a test that starts from one fails at
 * the step that broke, not later on a confusing number.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { invoiceRecord, signedDelivery } from "../../worker/edge/webhooks/record.ts";
import { deliverySentAt } from "../../worker/edge/webhooks/sent-at.ts";
import { parseExactJson } from "../../worker/lib/money/exact-json.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import {
  deliver,
  deliverAll,
  deliveriesFor,
  fault,
  openCheckout,
  postJson,
  refundOrder,
  sandbox,
  simulate,
  uniqueSub,
} from "./helpers.ts";

/** A TRON address for test networks with a valid checksum: the shopper's refund address. */
export const SHOPPER_TRON = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";

/** A widget call's answer: the snapshot, or the error it was refused with. */
export type Snap = { data: CheckoutSnapshot; error?: { code: string; message: string } };

/**
 * Asks the worker to lock `cryptoCurrencyCode` on checkout `id`, as the widget does.
 *
 * @example
 * const { status, body } = await lockCurrency(id, "TRX");
 */
export async function lockCurrency(id: string, cryptoCurrencyCode: string) {
  const res = await postJson(`/v1/checkouts/${id}/currency`, { cryptoCurrencyCode });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Snap };
}

/**
 * Opens a checkout of `amount` USD and locks USDT (TRC-20) on it; fails the test unless the
 * lock answers 200. Returns the invoice number, checkout id, service orderId and the lock's
 * snapshot.
 *
 * @example
 * const { sub, id, orderId } = await lockedCheckout("100.00");
 */
export async function lockedCheckout(amount = "49.90", label = "lk") {
  const sub = uniqueSub(label);
  const { body } = await openCheckout({ sub, amount });
  const locked = await postJson(`/v1/checkouts/${body.data.id}/currency`, {
    cryptoCurrencyCode: "USDT_TRC20",
  });
  expect(locked.status).toBe(200);
  const snapshot = ((await locked.json()) as { data: CheckoutSnapshot }).data;
  return { sub, id: body.data.id, orderId: `cc-${sub}`, snapshot };
}

/** What `paidOrder` may change: the order's USD amount and the refund address (null: none). */
export interface PaidOrderOptions {
  orderAmount?: string;
  refundAddress?: string | null;
  label?: string;
}

/**
 * An order of 49.90 USD locked in USDT (TRC-20), paid with the sandbox's *Simulate payment*
 * `action` ("paid", "over", "partial" with `amount`), every webhook delivered, then the refund
 * address set (SHOPPER_TRON unless `refundAddress` says otherwise; null sets none). Each step
 * must answer 200.
 *
 * @example
 * const { sub, id, orderId } = await paidOrder("over", "15");
 */
export async function paidOrder(action: string, amount?: string, options: PaidOrderOptions = {}) {
  const { sub, id, orderId } = await lockedCheckout(options.orderAmount, options.label ?? "paid");
  expect((await simulate(orderId, action, amount)).status).toBe(200);
  await deliverAll(orderId);
  const refundAddress = options.refundAddress === undefined ? SHOPPER_TRON : options.refundAddress;
  if (refundAddress !== null) {
    const set = await postJson(`/v1/checkouts/${id}/refund-address`, {
      cryptoCurrencyCode: "USDT_TRC20",
      address: refundAddress,
    });
    expect(set.status).toBe(200);
  }
  return { sub, id, orderId };
}

/**
 * Refunds the order `sub` (201), has the sandbox fail that refund's withdrawal and delivers its
 * `withdrawal.statusChanged` webhooks (each 200): the order is left with one failed refund.
 * Returns the refund as the merchant API answered it.
 *
 * @example
 * const first = await failedRefund(sub);
 * expect((await refundOrder(sub)).body.data.orderId).toBe(`cc-${sub}-refund-2`);
 */
export async function failedRefund(sub: string) {
  const first = await refundOrder(sub);
  expect(first.status).toBe(201);
  const failed = await sandbox(`/sandbox/withdrawals/${first.body.data.withdrawal!.id}/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action: "fail" }),
  });
  expect(failed.status).toBe(200);
  const hooks = (await deliveriesFor(`cc-${sub}-refund`)).filter(
    (d) => d.event === "withdrawal.statusChanged",
  );
  for (const h of hooks) expect((await deliver(h)).status).toBe(200);
  return first;
}

/**
 * Marks every attempt of the order behind checkout `id` ended, as an `expired` read with the
 * same money would: the sandbox never pays an expired invoice, a real service credits money
 * that arrives after expiry, and these tests need that late money.
 */
export function markEnded(id: string) {
  const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
  return runInDurableObject(stub, (o: OrderObject) => {
    o.store.sql.exec("UPDATE attempts SET ended = 1");
  });
}

/** The next withdrawal quote answers 1.5 s late: a refund holds the order meanwhile. */
export function slowRefundQuote() {
  return fault({
    path: "/withdrawal/quote",
    method: "POST",
    mode: "delay",
    delayMs: 1500,
    times: 1,
  });
}

/**
 * An open invoice the service moves processing → suspended (as the bench's load does: a status
 * change that notifies and keeps the invoice open), and the second webhook as the route hands
 * it to the order; the first was delivered through the route. `opened` runs once the checkout
 * is locked, before either webhook (a test opens a stream there).
 *
 * @example
 * const { stub, delivery } = await suspendedWebhook("inline");
 * await runInDurableObject(stub, (o: OrderObject) => o.applyInvoiceWebhook(delivery));
 */
export async function suspendedWebhook(label: string, opened?: (id: string) => Promise<void>) {
  const { id, orderId } = await lockedCheckout("40.00", label);
  await opened?.(id);
  expect((await simulate(orderId, "processing")).status).toBe(200);
  expect((await deliver((await deliveriesFor(orderId)).at(-1)!)).status).toBe(200);
  expect((await simulate(orderId, "suspend")).status).toBe(200);
  const hook = (await deliveriesFor(orderId)).at(-1)!;
  // As the route reads it: exact numbers (amounts are compared as decimal strings).
  const envelope = parseExactJson(hook.body) as {
    timestamp: string;
    data: Record<string, unknown>;
  };
  const stamp = {
    key: `test-${uniqueSub(label)}`,
    sentAt: deliverySentAt(envelope.timestamp, Date.now()),
  };
  const delivery = signedDelivery(String(envelope.data.id), stamp, envelope.data, invoiceRecord);
  expect(delivery.record).not.toBeNull();
  return { id, stub: env.ORDERS.get(env.ORDERS.idFromName(id)), delivery };
}
