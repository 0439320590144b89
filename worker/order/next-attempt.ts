/**
 * @module
 * Starting an order's next payment attempt (`-2`, `-3`, …) after the current one ended unpaid.
 *
 * Invariants:
 * - runs inside the object's lane: the amount due is computed after every webhook in flight
 *   for the order's invoices was applied, and none applies while the next invoice is created,
 *   so money that reached an earlier (ended) attempt is never asked for again;
 * - a retry that finds another attempt already started (a concurrent retry) answers the
 *   current snapshot and creates nothing;
 * - an orderId the service holds with other terms is skipped, at most `MAX_ORDER_ID_SKIPS`
 *   times: no attempt of this order uses it (an earlier try whose answer was lost, or another
 *   order's).
 */

import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { attemptOrderId } from "../lib/ids/upstream-order-id.ts";
import { type Outcome, success } from "../lib/outcome/outcome.ts";
import { applyInvoice } from "./apply-read.ts";
import { isOrderIdTaken } from "./attempt-invoice.ts";
import { newAttempt } from "./attempts.ts";
import { createInvoice } from "./open-order.ts";
import type { OrderHost } from "./order-host.ts";
import { retryRefusal } from "./payment-refusals.ts";
import { orderTotals } from "./snapshot.ts";
import type { OrderRow } from "./store.ts";

/** Attempt orderIds a retry skips at most when the service holds them with other terms. */
export const MAX_ORDER_ID_SKIPS = 3;

/**
 * Why the next attempt may not start now (refunded, paid, or the current one still open), or
 * null (`payment-refusals.ts`).
 *
 * @example
 * const refused = nextAttemptRefusal(host); if (refused) return refused;
 */
export function nextAttemptRefusal(host: OrderHost): Outcome<never> | null {
  return host.journal.refundedGuard() ?? retryRefusal(host.journal.current());
}

/**
 * Creates the attempt after attempt `seen` (inside the lane) and answers its snapshot.
 *
 * @example
 * return lane.run(() => whileOpening(host, () => nextAttempt(host, order, attempt.number)));
 */
export async function nextAttempt(
  host: OrderHost,
  order: OrderRow,
  seen: number,
  client?: string,
): Promise<Outcome<CheckoutSnapshot>> {
  const { store } = host;
  if (store.currentAttempt()!.number !== seen) return success(host.journal.current());
  // Webhooks applied while this call waited may have paid the order or closed it.
  const refused = nextAttemptRefusal(host);
  if (refused) return refused;
  const prefix = host.config().ORDER_ID_PREFIX;
  const due = orderTotals(order, store.attempts(), [], host.journal.terms()).due;
  let number = seen + 1;
  let orderId = attemptOrderId(prefix, order.invoiceNumber, number);
  let invoice = await createInvoice(host, orderId, due, order, client);
  for (
    let skips = 0;
    !invoice.ok && isOrderIdTaken(invoice) && skips < MAX_ORDER_ID_SKIPS;
    skips++
  ) {
    number += 1;
    orderId = attemptOrderId(prefix, order.invoiceNumber, number);
    invoice = await createInvoice(host, orderId, due, order, client);
  }
  if (!invoice.ok) return invoice;
  store.saveAttempt(newAttempt(number, invoice.value, due, new Date().toISOString()));
  return success(
    await applyInvoice(host, invoice.value, {
      type: "attempt.created",
      message: `payment attempt ${number} opened for ${due} ${order.currency} (service order ${orderId})`,
    }),
  );
}
