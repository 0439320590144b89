/**
 * @module
 * Creating one payment attempt's invoice at the service (the first attempt and every retry):
 * the request the order sends, and whether the answer may be adopted.
 *
 * Invariant: an invoice the service hands back is adopted only when it is this checkout's
 * (`invoice-ownership.ts`); a repeated orderId can return another order's.
 */
import type { Config } from "../core/config/config.ts";
import { upstreamFor } from "../core/config/upstream.ts";
import { ownershipTag } from "../lib/ids/ownership-tag.ts";
import { webhookUrl } from "../lib/ids/webhook-url.ts";
import type { Logger } from "../lib/log.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { Invoice } from "../service/client.ts";
import { isUncertainFailure, upstreamFailure } from "../service/upstream-failure.ts";
import { isOwnInvoice } from "./invoice-ownership.ts";
import type { Redirects } from "./order-settings.ts";

/** An upstream create's result; `uncertain` when the service may have created it anyway. */
export type Created = Outcome<Invoice> & { uncertain?: boolean };

/** What the order contributes to each of its invoices. */
export interface InvoiceOrder {
  checkoutId: string;
  invoiceNumber: string;
  currency: string;
  description: string | null;
  customerId: string | null;
  returnUrl: string | null;
}

/**
 * True when a create's orderId is held by an invoice this attempt cannot adopt: the service
 * refused it as holding other terms (`orderIdAlreadyExists` → `checkout_conflict`), or handed
 * back an invoice that is not this checkout's (`order_id_collision`: another order's, whose
 * number ends in `-<digits>`). A retry then takes the next attempt number.
 */
export const isOrderIdTaken = (created: Outcome<unknown>): boolean =>
  !created.ok && (created.code === "checkout_conflict" || created.code === "order_id_collision");

/**
 * Creates the invoice of one attempt (`orderId`, `amount` in the order's fiat), on behalf of
 * `client` (the shopper's key: its share of the upstream budget). Never throws for an upstream
 * failure: it becomes an outcome, `uncertain` when the invoice may exist anyway.
 *
 * @example
 * const created = await createAttemptInvoice(config, "cc-1001-2", "12.50", order, redirects, log);
 * if (!created.ok && created.uncertain) { ... } // keep the claims: the service may hold it
 */
export async function createAttemptInvoice(
  config: Config,
  orderId: string,
  amount: string,
  order: InvoiceOrder,
  redirects: Redirects | undefined,
  log: Logger,
  client?: string,
): Promise<Created> {
  let invoice: Invoice;
  try {
    invoice = await upstreamFor(config, { client }).createInvoice({
      orderId,
      fiatCurrencyCode: order.currency,
      amount,
      number: order.invoiceNumber,
      webhookUrl: webhookUrl(config.PUBLIC_BASE_URL),
      customPayload: ownershipTag(order.checkoutId),
      ...(order.description ? { description: order.description } : {}),
      ...(order.customerId ? { customerId: order.customerId } : {}),
      ...(order.returnUrl ? { returnUrl: order.returnUrl } : {}),
      ...redirects,
    });
  } catch (error) {
    return { ...upstreamFailure(error, log), uncertain: isUncertainFailure(error) };
  }
  const requested = { checkoutId: order.checkoutId, amount, currency: order.currency };
  if (!isOwnInvoice(invoice, requested)) {
    log.warn("order_id.collision", { orderId, invoiceId: invoice.id });
    return failure(
      409,
      "order_id_collision",
      `The payment service already uses orderId ${orderId} for another order (invoice numbers that end in -<digits> can meet another order's retry number). Use another invoice number for this order.`,
    );
  }
  return success(invoice);
}
