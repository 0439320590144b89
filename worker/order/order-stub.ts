/**
 * @module
 * How the worker reaches an order object: by its checkout id (`lib/ids/checkout-id.ts`, kind
 * `invoice`). `orderStubFromUrl` answers 404 for an id of the wrong shape without touching any
 * object.
 */
import { ApiError } from "../lib/api-error.ts";
import { CHECKOUT_ID, checkoutIdFor } from "../lib/ids/checkout-id.ts";
import type { OrdersBinding } from "./order-rpc.ts";

/**
 * The order of a checkout id.
 *
 * @example
 * await orderStub(env, checkoutId).view();
 */
export function orderStub(env: OrdersBinding, checkoutId: string) {
  return env.ORDERS.get(env.ORDERS.idFromName(checkoutId));
}

/** The order of a checkout id from a URL; 404 for ids of the wrong shape (no object touched). */
export function orderStubFromUrl(env: OrdersBinding, checkoutId: string) {
  if (!CHECKOUT_ID.test(checkoutId)) throw new ApiError(404, "not_found", "No such checkout.");
  return orderStub(env, checkoutId);
}

/**
 * The order of a merchant invoice number, with its checkout id.
 *
 * @example
 * const { stub } = await orderStubForInvoiceNumber(env, "1001", config.CHECKOUT_SIGNING_SECRET);
 */
export async function orderStubForInvoiceNumber(
  env: OrdersBinding,
  invoiceNumber: string,
  secret: string,
) {
  const id = await checkoutIdFor("invoice", invoiceNumber, secret);
  return { checkoutId: id, stub: orderStub(env, id) };
}
