/**
 * Issue 10, class 8: a partial payment that leaves less than the fiat's `minInvoiceAmount` due
 * must never offer an action the worker refuses. Within `PAYMENT_TOLERANCE_PERCENT` the order
 * counts as paid with the shortfall recorded; outside it, the snapshot says why the rest cannot
 * be paid (no retry), and the merchant is notified `order.underpaid` once.
 */
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { orderTotals, remainderBelowMinimum } from "../../worker/order/snapshot.ts";
import type { AttemptRow, OrderRow } from "../../worker/order/store.ts";
import {
  deliverAll,
  ledgerOf,
  openCheckout,
  postJson,
  simulate,
  uniqueSub,
  worker,
} from "./helpers.ts";

const order = { amount: "100.00", fiatDecimalPlaces: 2, walletPaid: "0" } as OrderRow;
const paidAttempt = (fiatApplied: string, status = "expired", ended = true) =>
  ({ fiatAmount: "100.00", fiatApplied, fiatOverpaid: "0", status, ended }) as AttemptRow;

describe("the tolerance rule (PAYMENT_TOLERANCE_PERCENT)", () => {
  const terms = { tolerancePercent: "1", minInvoiceAmount: "1" };

  it("within the tolerance the order is paid, nothing is due, and the shortfall is recorded", () => {
    expect(orderTotals(order, [paidAttempt("99.00")], [], terms)).toMatchObject({
      state: "paid",
      due: "0.00",
      shortfall: "1.00",
    });
  });

  it("outside it the order stays partially paid; the default tolerance is 0", () => {
    expect(orderTotals(order, [paidAttempt("98.99")], [], terms)).toMatchObject({
      state: "partially_paid",
      due: "1.01",
      shortfall: "0.00",
    });
    expect(orderTotals(order, [paidAttempt("99.99")])).toMatchObject({
      state: "partially_paid",
      due: "0.01",
    });
  });

  it("a rest below the minimum is reported only once the attempt ended", () => {
    const none = { tolerancePercent: "0", minInvoiceAmount: "1" };
    const ended = [paidAttempt("99.50")];
    expect(remainderBelowMinimum(ended, orderTotals(order, ended, [], none), none)).toEqual({
      reason: "remainder_below_minimum",
      amountDue: "0.50",
      minimum: "1",
    });
    const open = [paidAttempt("99.50", "partially_paid", false)];
    expect(remainderBelowMinimum(open, orderTotals(order, open, [], none), none)).toBeNull();
    const big = [paidAttempt("90.00")];
    expect(remainderBelowMinimum(big, orderTotals(order, big, [], none), none)).toBeNull();
  });
});

describe("a rest below the fiat's minimum invoice (tolerance 0)", () => {
  it("is explained in the snapshot, offers no retry, refuses one with amount_below_minimum, and notifies order.underpaid once", async () => {
    const sub = uniqueSub("under");
    const orderId = `cc-${sub}`;
    const { body } = await openCheckout({ sub, amount: "100.00" });
    const id = body.data.id;
    await postJson(`/v1/checkouts/${id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
    await simulate(orderId, "partial", "99.5");
    await deliverAll(orderId);
    await simulate(orderId, "expire");
    await deliverAll(orderId);

    const snap = (
      (await (await worker(`/v1/checkouts/${id}`)).json()) as {
        data: CheckoutSnapshot;
      }
    ).data;
    expect(snap.orderState).toBe("partially_paid");
    expect(snap.amountDue).toBe("0.50");
    expect(snap.underpaid).toEqual({
      reason: "remainder_below_minimum",
      amountDue: "0.50",
      minimum: "1",
    });
    expect(snap.canRetry).toBe(false);

    const retry = await postJson(`/v1/checkouts/${id}/retry`, {});
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as { error: { code: string } }).error.code).toBe(
      "amount_below_minimum",
    );
    // Deliveries again (duplicates) notify nothing more.
    await deliverAll(orderId);
    const notes = (await ledgerOf(sub)).notifications.filter((n) => n.type === "order.underpaid");
    expect(notes).toHaveLength(1);
  });
});
