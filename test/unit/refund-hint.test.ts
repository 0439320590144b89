/**
 * When a refund can be paid: the excess must reach the currency's minimum payout plus the
 * network fee (exact decimals, never floats).
 */
import { describe, expect, it } from "vitest";
import { refundHint } from "../../worker/order/refunds/hint.ts";

const USDT = { minWithdrawalAmount: "10", depositNetworkFee: { amount: "1" } };

describe("refundHint", () => {
  it("an overpayment below minimum + fee cannot be refunded", () => {
    expect(refundHint(USDT, "49.9", "50.4")).toEqual({
      excess: "0.5",
      minimum: "11",
      possible: false,
    });
  });

  it("exactly minimum + fee can (the boundary is inclusive)", () => {
    expect(refundHint(USDT, "49.9", "60.9")).toEqual({
      excess: "11",
      minimum: "11",
      possible: true,
    });
  });

  it("a partial payment is refunded whole: its excess is everything received", () => {
    expect(refundHint(USDT, "49.9", "12.5").excess).toBe("12.5");
    expect(refundHint(USDT, "49.9", "12.5").possible).toBe(true);
    expect(refundHint(USDT, "49.9", "0").possible).toBe(false);
  });

  it("no published network fee counts as 0; 18-decimal amounts stay exact", () => {
    const bnb = { minWithdrawalAmount: "0.000000000000000002", depositNetworkFee: null };
    expect(refundHint(bnb, "1", "1.000000000000000002")).toEqual({
      excess: "0.000000000000000002",
      minimum: "0.000000000000000002",
      possible: true,
    });
  });
});
