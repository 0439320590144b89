/**
 * @module
 * Why an order takes no further payment now, as pure functions of its rows: a refund closed
 * it or holds it (`refundedRefusal`), or the next attempt may not start (`retryRefusal`: paid,
 * a rest below the service's minimum, an attempt still open). The order object answers these
 * outcomes as they are (409s with the codes the API documents).
 */
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { failure, type Outcome } from "../lib/outcome/outcome.ts";
import type { RefundRecord } from "./refunds/records.ts";
import { orderTotals, type PaymentTerms } from "./snapshot.ts";
import type { AttemptRow, OrderRow } from "./store.ts";

/**
 * 409 `order_refunded` once a live refund closed the order, or while a refund of a not fully
 * paid order is in progress (`held`: its hold is taken before the quote); else null.
 *
 * @example
 * refundedRefusal(order, attempts, readRefunds(sql), readHold(sql) !== null, terms);
 */
export function refundedRefusal(
  order: OrderRow,
  attempts: readonly AttemptRow[],
  refunds: readonly RefundRecord[],
  held: boolean,
  terms: PaymentTerms,
): Outcome<never> | null {
  if (orderTotals(order, attempts, refunds, terms).state === "refunded") {
    return failure(
      409,
      "order_refunded",
      "This order was refunded to the shopper; it takes no further payment.",
    );
  }
  if (held && orderTotals(order, attempts, [], terms).state !== "paid") {
    return failure(
      409,
      "order_refunded",
      "A refund of this order is in progress; it takes no further payment unless the refund fails.",
    );
  }
  return null;
}

/**
 * Why the next attempt may not start, read from the order's current snapshot; null when it may.
 *
 * @example
 * retryRefusal(snapshot); // 409 attempt_open while the current attempt is still open
 */
export function retryRefusal(snapshot: CheckoutSnapshot): Outcome<never> | null {
  if (snapshot.orderState === "paid")
    return failure(409, "order_paid", "This order is already paid.");
  if (snapshot.underpaid) {
    const { amountDue, minimum } = snapshot.underpaid;
    return failure(
      409,
      "amount_below_minimum",
      `The ${amountDue} ${snapshot.currency} still due is below the smallest payment the service accepts (${minimum} ${snapshot.currency}); the shop will refund or accept the order.`,
    );
  }
  if (!snapshot.canRetry)
    return failure(409, "attempt_open", "The current payment attempt is still open.");
  return null;
}
