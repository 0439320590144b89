/**
 * @module
 * From a checkout id (or an invoice number) to its order's Durable Object stub.
 */
import type { Env } from "../config/env.ts";
import { ApiError } from "../http/api-error.ts";
import { CHECKOUT_ID, checkoutIdFor } from "../ids/checkout-id.ts";

/** The stub for a checkout id from a URL; 404 for ids of the wrong shape (no object touched). */
export function stubForCheckout(env: Env, checkoutId: string) {
  if (!CHECKOUT_ID.test(checkoutId)) throw new ApiError(404, "not_found", "No such checkout.");
  return env.ORDERS.get(env.ORDERS.idFromName(checkoutId));
}

/** The stub for a merchant invoice number. */
export async function stubForInvoiceNumber(env: Env, invoiceNumber: string, secret: string) {
  const id = await checkoutIdFor("invoice", invoiceNumber, secret);
  return { checkoutId: id, stub: env.ORDERS.get(env.ORDERS.idFromName(id)) };
}
