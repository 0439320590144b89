/**
 * @module
 * How the worker reaches each Durable Object: one function per object, from the name the
 * object is known by. Nothing else calls `idFromName`, so an object's naming rule lives here
 * and in `ids/` only.
 *
 * - order: its checkout id (`ids/checkout-id.ts`, kind `invoice`);
 * - top-up: its checkout id (kind `deposit`, `d` + 22 characters);
 * - payout: `payout:<orderId>`;
 * - currency list: its cache key; payment-mode record: service + account;
 * - account index, upstream budget and reconciler: the account's key (`account/account-key.ts`
 *   `accountKey`: service base URL + account id), one of each per service account.
 *
 * The `…FromUrl` variants take an id from a request and answer 404 for one of the wrong shape
 * without touching any object.
 */
import type { Env } from "../config/env.ts";
import type { NotifierRpc } from "../events/notifier-rpc.ts";
import { ApiError } from "../http/api-error.ts";
import { CHECKOUT_ID, checkoutIdFor, DEPOSIT_ID } from "../ids/checkout-id.ts";

/**
 * The order of a checkout id.
 *
 * @example
 * await orderStub(env, checkoutId).view();
 */
export function orderStub(env: Env, checkoutId: string) {
  return env.ORDERS.get(env.ORDERS.idFromName(checkoutId));
}

/** The order of a checkout id from a URL; 404 for ids of the wrong shape (no object touched). */
export function orderStubFromUrl(env: Env, checkoutId: string) {
  if (!CHECKOUT_ID.test(checkoutId)) throw new ApiError(404, "not_found", "No such checkout.");
  return orderStub(env, checkoutId);
}

/**
 * The order of a merchant invoice number, with its checkout id.
 *
 * @example
 * const { stub } = await orderStubForInvoiceNumber(env, "1001", config.CHECKOUT_SIGNING_SECRET);
 */
export async function orderStubForInvoiceNumber(env: Env, invoiceNumber: string, secret: string) {
  const id = await checkoutIdFor("invoice", invoiceNumber, secret);
  return { checkoutId: id, stub: orderStub(env, id) };
}

/** The top-up of a checkout id. */
export function depositStub(env: Env, checkoutId: string) {
  return env.DEPOSITS.get(env.DEPOSITS.idFromName(checkoutId));
}

/** The top-up of an id from a URL; 404 for ids of the wrong shape (no object touched). */
export function depositStubFromUrl(env: Env, checkoutId: string) {
  if (!DEPOSIT_ID.test(checkoutId)) throw new ApiError(404, "not_found", "No such top-up.");
  return depositStub(env, checkoutId);
}

/**
 * The payout of an orderId: one object per orderId.
 *
 * @example
 * const view = unwrap(await payoutStub(env, "po-1001").view());
 */
export function payoutStub(env: Env, orderId: string) {
  return env.PAYOUTS.get(env.PAYOUTS.idFromName(`payout:${orderId}`));
}

/** The currency list kept under a cache key. */
export function catalogStub(env: Env, key: string) {
  return env.CATALOG.get(env.CATALOG.idFromName(key));
}

/** The payment-mode record of one service + account key. */
export function paymentModeStub(env: Env, key: string) {
  return env.PAYMENT_MODES.get(env.PAYMENT_MODES.idFromName(key));
}

/**
 * The account's index (orders, notification log, webhook health) of one service + account key
 * (`account/account-key.ts`).
 *
 * @example
 * await accountStub(env, accountKey(config)).listOrders({}, 50, null);
 */
export function accountStub(env: Env, key: string) {
  return env.ACCOUNTS.get(env.ACCOUNTS.idFromName(key));
}

const NOTIFIER_SOURCE = /^(order|deposit|payout):([0-9a-f]{64})$/;

/**
 * The object whose outbox a notification source names (`events/notifier-rpc.ts`), or null
 * for a name of another shape.
 *
 * @example
 * await notifierStub(env, "order:8f3c…")?.redeliverNotification("evt_…");
 */
export function notifierStub(env: Env, source: string): NotifierRpc | null {
  const m = NOTIFIER_SOURCE.exec(source);
  if (!m) return null;
  const namespace = { order: env.ORDERS, deposit: env.DEPOSITS, payout: env.PAYOUTS }[
    m[1] as "order" | "deposit" | "payout"
  ];
  return namespace.get(namespace.idFromString(m[2]!)) as unknown as NotifierRpc;
}

/**
 * The deployment's upstream budget of one service account.
 *
 * @example
 * await budgetStub(env, accountKey(config)).status();
 */
export function budgetStub(env: Env, key: string) {
  return env.BUDGETS.get(env.BUDGETS.idFromName(key));
}

/**
 * The reconciler of one service account (the same key as its budget).
 *
 * @example
 * await reconcilerStub(env, accountKey(config)).register(rows);
 */
export function reconcilerStub(env: Env, key: string) {
  return env.RECONCILERS.get(env.RECONCILERS.idFromName(key));
}
