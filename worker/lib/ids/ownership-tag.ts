/**
 * @module
 * The ownership tag: the `customPayload` (`cc1:<checkoutId>`) every invoice the worker creates
 * carries, written and read here only. It names the checkout an invoice belongs to where the
 * orderId cannot (`upstream-order-id.ts`: attempt suffixes are ambiguous), for the create's
 * ownership check and for routing webhooks. `cc1` is the tag's version.
 */
import { CHECKOUT_ID } from "./checkout-id.ts";

const TAG = "cc1:";

/**
 * The `customPayload` a checkout sends with every invoice it creates.
 *
 * @example
 * ownershipTag("AbCdEfGhIjKlMnOpQrStUv"); // "cc1:AbCdEfGhIjKlMnOpQrStUv"
 */
export function ownershipTag(checkoutId: string): string {
  return `${TAG}${checkoutId}`;
}

/**
 * The checkout id a `customPayload` names, or null when it is not a well-formed tag.
 *
 * @example
 * taggedCheckoutId("cc1:AbCdEfGhIjKlMnOpQrStUv"); // "AbCdEfGhIjKlMnOpQrStUv"
 * taggedCheckoutId("order 7"); // null
 */
export function taggedCheckoutId(payload: string | null | undefined): string | null {
  if (!payload?.startsWith(TAG)) return null;
  const id = payload.slice(TAG.length);
  return CHECKOUT_ID.test(id) ? id : null;
}
