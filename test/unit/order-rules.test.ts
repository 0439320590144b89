/**
 * The order's small pure rules taken out of its object: the invoice's follow plan
 * (`worker/order/follow-plan.ts`), the refusals of further payment
 * (`worker/order/payment-refusals.ts`) and the owed `order.paid` after a released refund hold
 * (`worker/order/notifications.ts` `owedPaid`).
 */
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { LATE_PAYMENT_MS } from "../../worker/core/converge/schedule.ts";
import { newAttempt } from "../../worker/order/attempts.ts";
import { invoiceFollowPlan } from "../../worker/order/follow-plan.ts";
import { owedPaid } from "../../worker/order/notifications.ts";
import { refundedRefusal, retryRefusal } from "../../worker/order/payment-refusals.ts";
import type { RefundRecord } from "../../worker/order/refunds/records.ts";
import { NO_TERMS } from "../../worker/order/snapshot.ts";
import type { AttemptRow } from "../../worker/order/store.ts";
import { invoice, NOW, ORDER } from "./order-fixtures.ts";

const INVOICE = invoice("created", null);
const attempt = (over: Partial<AttemptRow> = {}): AttemptRow => ({
  ...newAttempt(1, INVOICE, "100.00", NOW),
  ...over,
});
const paid = attempt({ status: "paid", fiatApplied: "100.00", cryptoApplied: "0.001" });
const half = attempt({ status: "partially_paid", fiatApplied: "50.00", cryptoApplied: "0.0005" });
const refund = (status: RefundRecord["status"]): RefundRecord => ({
  orderId: "cc-1-refund",
  number: 1,
  cryptoCurrencyCode: "BTC",
  amount: "0.0005",
  status,
  withdrawalId: "wd_1",
  address: "tb1q",
});

describe("invoiceFollowPlan", () => {
  it("follows until final and until expiry + the late-payment window; a paid unnamed currency is read again", () => {
    const open = invoiceFollowPlan(ORDER, attempt(), null, 5, true);
    expect(open).toEqual({
      now: 5,
      follow: true,
      keepUntil: Date.parse("2026-01-01T01:00:00.000Z") + LATE_PAYMENT_MS,
      watched: true,
    });
    expect(invoiceFollowPlan(ORDER, paid, null, 5, false).follow).toBe(false);
    expect(invoiceFollowPlan(ORDER, paid, "BTC", 5, false).follow).toBe(true);
    const noExpiry = invoiceFollowPlan(ORDER, attempt({ expiresAt: null }), null, 5, false);
    expect(noExpiry.keepUntil).toBe(Date.parse(NOW) + 7 * LATE_PAYMENT_MS);
  });
});

describe("payment refusals", () => {
  it("a live refund of a partial payment closes the order; a hold of a not fully paid one holds it", () => {
    expect(refundedRefusal(ORDER, [half], [], false, NO_TERMS)).toBeNull();
    const closed = refundedRefusal(ORDER, [half], [refund("created")], false, NO_TERMS);
    expect(closed).toMatchObject({ ok: false, status: 409, code: "order_refunded" });
    expect(refundedRefusal(ORDER, [half], [refund("failed")], false, NO_TERMS)).toBeNull();
    const held = refundedRefusal(ORDER, [half], [], true, NO_TERMS);
    expect(held).toMatchObject({ ok: false, code: "order_refunded" });
    expect(refundedRefusal(ORDER, [paid], [], true, NO_TERMS)).toBeNull();
  });

  it("a retry is refused when paid, below the minimum, or while the attempt is open", () => {
    const snap = (over: Partial<CheckoutSnapshot>) =>
      ({
        orderState: "partially_paid",
        underpaid: null,
        canRetry: true,
        currency: "EUR",
        ...over,
      }) as CheckoutSnapshot;
    expect(retryRefusal(snap({}))).toBeNull();
    expect(retryRefusal(snap({ orderState: "paid" }))).toMatchObject({ code: "order_paid" });
    const below = retryRefusal(
      snap({ underpaid: { amountDue: "0.50", minimum: "1.00" } as never }),
    );
    expect(below).toMatchObject({ code: "amount_below_minimum" });
    expect(retryRefusal(snap({ canRetry: false }))).toMatchObject({ code: "attempt_open" });
  });
});

describe("owedPaid", () => {
  it("answers the one order.paid of a paid order none was sent for, else nothing", () => {
    expect(owedPaid(ORDER, [paid], [], NO_TERMS, false, NOW).map((n) => n.type)).toEqual([
      "order.paid",
    ]);
    expect(owedPaid(ORDER, [paid], [], NO_TERMS, true, NOW)).toEqual([]);
    expect(owedPaid(ORDER, [half], [], NO_TERMS, false, NOW)).toEqual([]);
  });
});
