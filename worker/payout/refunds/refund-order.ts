/**
 * @module
 * Refunding an order (`POST /v1/orders/:invoiceNumber/refund`): pays the shopper back what the
 * order allows, through the payout quote → commit path, and keeps the order's refund
 * bookkeeping in step. The folder `refunds/` holds every part of it:
 * - `plan.ts`: what an order allows to refund (exact decimals, from `RefundFacts`);
 * - `hold.ts`: the order's refund hold, taken atomically with that check;
 * - `records.ts`: the refunds an order knows of, and what they do to its state;
 * - `report.ts`: how a refund's payout tells its order about its withdrawal;
 * - `address.ts`, `hint.ts`: when the shopper's refund address may change, and whether a
 *   refund could be paid at all (the widget asks for an address only then);
 * - this file: the steps between the order object and the payout object.
 *
 * The order object keeps the refund tables in its own SQLite and answers three narrow calls
 * (`OrderRpc`): `beginRefund` (its live refund, or the plan under a hold), `abandonRefund` and
 * `recordRefund`. The refund never reads the order's ledger.
 *
 * Invariants:
 * - **one live refund per order**: asking again returns it (200); another `amount` is 409
 *   `checkout_conflict`. A refund that the payout says failed or was cancelled, but the order
 *   still counts live (its report was lost), is reported first, then a new refund begins;
 * - **the hold**: the order checks what it allows and takes its hold in one step, before the
 *   quote; from then until this refund fails, no payment attempt or currency lock starts and
 *   the refund address is frozen, so nothing can change what the refund was planned on;
 * - **the resumed refund**: a hold that already exists is resumed under its own orderId, never
 *   replaced by a new one; an earlier call may have committed a withdrawal whose answer was
 *   lost, and the payout object collapses the same orderId into that one withdrawal;
 * - **the uncertain commit**: the hold is released only when nothing can have been paid (a
 *   fresh refund whose quote failed, or whose commit the service refused with a 4xx). After a
 *   5xx, lost or garbled commit answer the service may have paid, so the hold stays until a
 *   repeat settles it (the payout reads the withdrawal back) or its withdrawal fails; a resumed
 *   refund never releases it whatever this call's refusal.
 */
import type { PayoutView } from "../../../packages/contract/src/http-api.ts";
import { ApiError } from "../../lib/api-error.ts";
import { cmp } from "../../lib/money/decimal.ts";
import { unwrap } from "../../lib/outcome/outcome.ts";
import { orderStubForInvoiceNumber } from "../../order/order-stub.ts";
import type { RefundStart } from "../../order/refunds/hold.ts";
import { payoutStub } from "../payout-stub.ts";
import { type QuoteContext, quotePayout } from "../quote.ts";
import { reportRefund } from "./report.ts";

/** The refund's payout, and whether this call made it (201) or found it (200). */
export interface RefundAnswer {
  view: PayoutView;
  created: boolean;
}

type OrderStub = Awaited<ReturnType<typeof orderStubForInvoiceNumber>>["stub"];
type Held = Extract<RefundStart, { kind: "held" }>;

const ended = (status: PayoutView["status"]) => status === "failed" || status === "cancelled";

/**
 * Refunds an order: `amount` (at most the refundable amount) or, when absent, everything the
 * order allows. Throws an `ApiError` for every refusal (404, 409, 400, the service's errors).
 *
 * @example
 * const { view, created } = await refundOrder({ env, config, log }, "1001", "15");
 * // view.orderId === "cc-1001-refund", created === true
 */
export async function refundOrder(
  at: QuoteContext,
  invoiceNumber: string,
  amount?: string,
): Promise<RefundAnswer> {
  const secret = at.config.CHECKOUT_SIGNING_SECRET;
  const { stub: order } = await orderStubForInvoiceNumber(at.env, invoiceNumber, secret);
  // At most two rounds: the second begins after recording a failure the order missed.
  for (let reported = false; ; reported = true) {
    const start = unwrap(await order.beginRefund());
    if (start.kind === "held") return pay(at, order, invoiceNumber, amount, start);
    const live = start.refund;
    const view = unwrap(await payoutStub(at.env, live.orderId).view());
    if (!ended(view.status)) {
      if (amount !== undefined && cmp(amount, live.amount) !== 0) {
        throw new ApiError(
          409,
          "checkout_conflict",
          `Order ${invoiceNumber} already has refund ${live.orderId} of ${live.amount} ${live.cryptoCurrencyCode}; an order has one refund unless it fails.`,
        );
      }
      return { view, created: false };
    }
    if (reported) {
      throw new ApiError(503, "service_busy", "The order did not record its refund; try again.");
    }
    // The order missed the failure (its report was lost): record it, then begin anew.
    await reportRefund(at.env, secret, view);
  }
}

/** Quotes and commits the held refund; releases the hold only when nothing can have been paid. */
async function pay(
  at: QuoteContext,
  order: OrderStub,
  invoiceNumber: string,
  amount: string | undefined,
  { orderId, plan, resumed }: Held,
): Promise<RefundAnswer> {
  let created: boolean;
  let view: PayoutView;
  let committing = false;
  try {
    if (amount !== undefined && cmp(amount, plan.refundable) > 0) {
      throw new ApiError(
        400,
        "validation_failed",
        `amount must be a decimal string of at most the refundable ${plan.refundable} ${plan.cryptoCurrencyCode}.`,
      );
    }
    ({ created } = await quotePayout(at, {
      orderId,
      kind: "refund",
      invoiceNumber,
      cryptoCurrencyCode: plan.cryptoCurrencyCode,
      address: plan.address,
      amount: amount ?? plan.refundable,
    }));
    committing = true;
    view = unwrap(await payoutStub(at.env, orderId).commit());
  } catch (error) {
    // Nothing was sent (no commit yet), or the service refused the commit (4xx): no money
    // moved. Otherwise the commit is uncertain and the hold stays (module invariants).
    const sentNothing = !committing || (error instanceof ApiError && error.status < 500);
    if (error instanceof ApiError && sentNothing && !resumed) await order.abandonRefund(orderId);
    throw error;
  }
  // The payout object reported the commit already; this repeat is idempotent and covers a lost report.
  await reportRefund(at.env, at.config.CHECKOUT_SIGNING_SECRET, view);
  return { view, created };
}
