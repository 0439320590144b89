/**
 * @module
 * Finds the order object an upstream invoice belongs to.
 *
 * Primary: the invoice's `customPayload` (`cc1:<checkoutId>`), which the worker sets on every
 * invoice it creates. Fallback for invoices without it: the orderId `<prefix>-<sub>[-n]`. The
 * suffix is ambiguous (`cc-A-2` is order `A-2`, or attempt 2 of order `A`), so both candidates
 * are returned; the object that knows the invoice id answers, the others report unknown.
 */
import { CHECKOUT_ID, checkoutIdFor } from "../checkout/checkout-id.ts";

/** Candidate checkout ids for an invoice. */
export async function checkoutCandidates(
  ref: { orderId?: string | null; customPayload?: string | null },
  prefix: string,
  secret: string,
): Promise<string[]> {
  const payload = ref.customPayload ?? "";
  if (payload.startsWith("cc1:")) {
    const id = payload.slice(4);
    if (CHECKOUT_ID.test(id)) return [id];
  }
  const orderId = ref.orderId ?? "";
  if (!orderId.startsWith(`${prefix}-`)) return [];
  const rest = orderId.slice(prefix.length + 1);
  const subs = [rest];
  const attempt = /^(.+)-(\d+)$/.exec(rest);
  if (attempt?.[1]) subs.push(attempt[1]);
  return Promise.all(subs.map((sub) => checkoutIdFor("invoice", sub, secret)));
}
