/**
 * @module
 * Whether an invoice the service returned from a create belongs to the checkout that asked.
 *
 * Why: the service answers a repeated orderId with the invoice it already has. OrderIds are
 * `<prefix>-<invoice number>[-<n>]`, and invoice numbers may themselves end in `-<digits>`
 * ("2024-0001"), so order "Y" attempt 2 and order "Y-2" attempt 1 both send `cc-Y-2`. The
 * second to ask would silently adopt the first's invoice. Every create is therefore checked:
 * the invoice must carry this checkout's ownership tag (`lib/ids/ownership-tag.ts`) and the amount and fiat we asked for.
 */
import { ownershipTag } from "../lib/ids/ownership-tag.ts";
import { cmp } from "../lib/money/decimal.ts";
import type { Invoice } from "../service/client.ts";

/** What a checkout asked the service to create. */
export interface RequestedInvoice {
  checkoutId: string;
  amount: string;
  currency: string;
}

/**
 * True when `invoice` is the one `requested` describes (same checkout, amount and fiat).
 *
 * @example
 * isOwnInvoice(invoice, { checkoutId, amount: "10.00", currency: "USD" }); // false for another order's invoice
 */
export function isOwnInvoice(invoice: Invoice, requested: RequestedInvoice): boolean {
  return (
    invoice.customPayload === ownershipTag(requested.checkoutId) &&
    invoice.fiatCurrencyCode === requested.currency &&
    cmp(invoice.amount, requested.amount) === 0
  );
}
