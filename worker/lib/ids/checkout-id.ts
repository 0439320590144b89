/**
 * @module
 * Checkout ids: 128 bits of HMAC-SHA256 over the invoice number, keyed by
 * `CHECKOUT_SIGNING_SECRET`, in base64url (22 characters).
 *
 * Why derived rather than random: the same invoice number must always reach the same order
 * Durable Object (from the widget, the merchant API and webhooks) without a lookup table, yet
 * nobody without the secret can guess a checkout id from an invoice number. The id is also the
 * Durable Object's name. Rotating the secret therefore orphans live checkouts (documented).
 */

import { hmacSha256 } from "../signing/hmac.ts";

/** Kinds of checkout that live in separate id spaces. */
export type CheckoutKind = "invoice" | "deposit";

/**
 * Derives the checkout id for an invoice number (or top-up id).
 *
 * @example
 * const id = await checkoutIdFor("invoice", "1001", config.CHECKOUT_SIGNING_SECRET);
 * // "q3v2…" (22 chars, URL-safe)
 */
export async function checkoutIdFor(kind: CheckoutKind, sub: string, secret: string) {
  const mac = await hmacSha256(secret, `checkout-id:v1:${kind}:${sub}`);
  const id = btoa(String.fromCharCode(...mac.subarray(0, 16)));
  return (
    (kind === "invoice" ? "" : "d") + id.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
  );
}

/** Shape check before touching any Durable Object: 22 base64url chars (`d` prefix for top-ups). */
export const CHECKOUT_ID = /^d?[A-Za-z0-9_-]{22}$/;

/** The shape of a top-up's checkout id: `d` + 22 base64url characters. */
export const DEPOSIT_ID = /^d[A-Za-z0-9_-]{22}$/;
