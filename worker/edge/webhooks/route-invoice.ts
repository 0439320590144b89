/**
 * @module
 * Finds the order object an upstream invoice belongs to.
 *
 * Primary: the invoice's `customPayload` (`cc1:<checkoutId>`), which the worker sets on every
 * invoice it creates. Fallback for invoices without it: the orderId `<prefix>-<sub>[-n]`. The
 * suffix is ambiguous (`cc-A-2` is order `A-2`, or attempt 2 of order `A`), so both candidates
 * are returned; the object that knows the invoice id answers, the others report unknown.
 */
import { checkoutIdFor } from "../../lib/ids/checkout-id.ts";
import { taggedCheckoutId } from "../../lib/ids/ownership-tag.ts";
import { attemptInvoiceNumbers } from "../../lib/ids/upstream-order-id.ts";

/** Candidate checkout ids for an invoice. */
export async function checkoutCandidates(
  ref: { orderId?: string | null; customPayload?: string | null },
  prefix: string,
  secret: string,
): Promise<string[]> {
  const tagged = taggedCheckoutId(ref.customPayload);
  if (tagged) return [tagged];
  const subs = attemptInvoiceNumbers(prefix, ref.orderId ?? "");
  return Promise.all(subs.map((sub) => checkoutIdFor("invoice", sub, secret)));
}
