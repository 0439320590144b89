/**
 * `orderTotals`: what the order as a whole has paid, owes and overpaid across attempts.
 */
import { describe, expect, it } from "vitest";
import { orderTotals } from "../../worker/order/snapshot.ts";
import type { AttemptRow, OrderRow } from "../../worker/order/store.ts";

const order = { amount: "100.00", fiatDecimalPlaces: 2, walletPaid: "0" } as OrderRow;
const attempt = (fiatAmount: string, fiatApplied: string, fiatOverpaid = "0") =>
  ({ fiatAmount, fiatApplied, fiatOverpaid }) as AttemptRow;

describe("order totals across attempts", () => {
  it("two attempts that both pay: the second payment is overpaid", () => {
    // Attempt 1 partly paid 40 and ended; attempt 2 asked 60; then attempt 1 got paid in full.
    const totals = orderTotals(order, [attempt("100.00", "100.00"), attempt("60.00", "60.00")]);
    expect(totals).toMatchObject({ paid: "160.00", due: "0.00", overpaid: "60.00", state: "paid" });
  });

  it("counts x402 money (wallet_paid) beside the attempts': wallet alone pays; wallet and invoice both pay, the second is overpaid; wallet and a partial invoice leave the rest due", () => {
    expect(orderTotals({ ...order, walletPaid: "100.00" }, [attempt("100.00", "0")])).toMatchObject(
      {
        paid: "100.00",
        due: "0.00",
        overpaid: "0.00",
        state: "paid",
      },
    );
    expect(
      orderTotals({ ...order, walletPaid: "100.00" }, [attempt("100.00", "100.00")]),
    ).toMatchObject({ paid: "200.00", overpaid: "100.00", state: "paid" });
    expect(
      orderTotals({ ...order, walletPaid: "30.00" }, [attempt("100.00", "40.00")]),
    ).toMatchObject({ paid: "70.00", due: "30.00", state: "partially_paid" });
  });

  it("adds an attempt's own crypto excess to the excess across attempts", () => {
    const totals = orderTotals(order, [
      attempt("100.00", "40.00"),
      attempt("60.00", "60.00", "5.00"),
    ]);
    expect(totals).toMatchObject({ paid: "100.00", overpaid: "5.00", due: "0.00" });
    const both = orderTotals(order, [
      attempt("100.00", "100.00", "1.50"),
      attempt("60.00", "60.00", "5.00"),
    ]);
    expect(both.overpaid).toBe("66.50");
  });
});
