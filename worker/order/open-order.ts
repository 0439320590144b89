/**
 * @module
 * Opening an order's checkout: the claims a reopen must match (`openConflict`, pure) and the
 * first attempt's creation (`createFirst`: claims kept ahead, the service's invoice, the
 * order's first rows, its first event).
 *
 * Invariants:
 * - every open compares against the terms already claimed: the order row, or (before it
 *   exists) the claims of a create in flight or of one that failed uncertainly, so two tokens
 *   with other amounts or currencies never share a checkout;
 * - the order's tables are made with its first rows, after the upstream call: nothing awaits
 *   between the DDL and the transaction, so both land in one commit.
 */

import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { prefetchUpstream } from "../core/config/upstream.ts";
import { attemptOrderId } from "../lib/ids/upstream-order-id.ts";
import { cmp } from "../lib/money/decimal.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import { applyInvoice } from "./apply-read.ts";
import { createAttemptInvoice, type InvoiceOrder } from "./attempt-invoice.ts";
import { newAttempt } from "./attempts.ts";
import type { OrderHost } from "./order-host.ts";
import type { OpenCheckout } from "./order-rpc.ts";
import type { Claims } from "./order-settings.ts";
import { x402Payments } from "./x402/payments-table.ts";

/**
 * 409 `checkout_conflict` when `input` asks another amount or currency than `claimed`; null
 * when it may reuse the checkout (or nothing is claimed yet).
 *
 * @example
 * openConflict({ amount: "10.00", currency: "EUR" }, { invoiceNumber: "1", amount: "10", currency: "EUR" }); // null
 */
export function openConflict(
  claimed: Claims | undefined,
  input: Pick<OpenCheckout, "invoiceNumber" | "amount" | "currency">,
): Outcome<never> | null {
  if (!claimed) return null;
  if (claimed.currency === input.currency && cmp(claimed.amount, input.amount) === 0) return null;
  return failure(
    409,
    "checkout_conflict",
    `Order ${input.invoiceNumber} already has a checkout for ${claimed.amount} ${claimed.currency}; a token with another amount or currency cannot reuse it.`,
  );
}

/**
 * Creates one attempt's invoice with the order's redirects (`attempt-invoice.ts`), on behalf of
 * `client` (its budget share).
 *
 * @example
 * const created = await createInvoice(host, "cc-1001-2", "12.50", order, client);
 */
export function createInvoice(
  host: OrderHost,
  orderId: string,
  amount: string,
  order: InvoiceOrder,
  client?: string,
) {
  const redirects = host.settings.redirects();
  const log = host.logger();
  return createAttemptInvoice(host.config(), orderId, amount, order, redirects, log, client);
}

/**
 * Asks the upstream budget for the create's call before the open writes anything (the fiat
 * minimum, the claims): a message sent before a write does not wait for its commit, so the
 * budget's answer and that commit overlap, where the gate would otherwise ask only once the
 * commit let it out. The create's own call still leaves only after the claims are committed.
 * Nothing for an order already opened (a reopen calls nothing); never throws.
 *
 * @example
 * if (!opened) prefetchCreate(host);
 */
export function prefetchCreate(host: Pick<OrderHost, "config">, client?: string): void {
  try {
    prefetchUpstream(host.config(), "interactive", client);
  } catch {
    // Invalid configuration: the create itself reports it.
  }
}

/**
 * Creates the order's first attempt (inside the lane): the claims are kept ahead (dropped
 * when the create surely failed), then the order's rows and its `checkout.created` event.
 *
 * @example
 * const created = await whileOpening(host, () => createFirst(host, input));
 */
export async function createFirst(
  host: OrderHost,
  input: OpenCheckout,
): Promise<Outcome<CheckoutSnapshot>> {
  const { settings, store } = host;
  const config = host.config();
  settings.setPendingClaims(input);
  settings.setMode(input.mode);
  settings.setTolerance(config.PAYMENT_TOLERANCE_PERCENT);
  settings.setRedirects(input);
  const orderId = attemptOrderId(config.ORDER_ID_PREFIX, input.invoiceNumber, 1);
  const invoice = await createInvoice(host, orderId, input.amount, input, input.client);
  if (!invoice.ok) {
    if (!invoice.uncertain) settings.dropPendingClaims();
    return invoice;
  }
  const now = new Date().toISOString();
  // The claims alone are a far smaller commit than the whole schema (the output gate holds the
  // upstream call until everything written before it is committed).
  if (!host.hasSchema()) {
    host.ensureSchema();
    // Just made: the order has no x402 payment (nothing to ask SQLite on the way to its answer).
    x402Payments.knownEmpty(store.sql);
  }
  host.transaction(() => {
    if (!store.order()) {
      store.insertOrder({
        ...input,
        refundCurrency: null,
        refundAddress: null,
        createdAt: now,
        walletPaid: "0",
      });
    }
    store.saveAttempt(newAttempt(1, invoice.value, input.amount, now));
    settings.dropPendingClaims();
  });
  return success(
    await applyInvoice(host, invoice.value, {
      type: "checkout.created",
      message: `payment attempt 1 opened (service order ${invoice.value.orderId})`,
    }),
  );
}
