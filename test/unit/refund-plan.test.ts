/**
 * What a refund of an order may pay back (`refunds/plan.ts`), from the narrow facts the order
 * gives (`order/refund-facts.ts`): exact decimals, the refund address's currency only, never
 * while the shopper may still pay, and net of live refunds (failed ones returned nothing).
 */
import { describe, expect, it } from "vitest";
import { type RefundFacts, refundPlan } from "../../worker/refunds/plan.ts";

const TO = { cryptoCurrencyCode: "USDT_TRC20", address: "TXYZ" };

type Attempt = RefundFacts["attempts"][number];
const attempt = (over: Partial<Attempt>): Attempt => ({
  number: 1,
  status: "partially_paid",
  open: false,
  cryptoCurrencyCode: "USDT_TRC20",
  cryptoExpected: "49.9",
  cryptoReceived: "0",
  ...over,
});

describe("refundPlan", () => {
  it("a paid order refunds only the excess of its overpaid attempts", () => {
    const plan = refundPlan({
      state: "paid",
      refundAddress: TO,
      attempts: [
        attempt({ status: "expired", cryptoReceived: "20" }),
        attempt({
          number: 2,
          status: "overpaid",
          cryptoExpected: "29.9",
          cryptoReceived: "45.0001",
        }),
      ],
      refunds: [],
    });
    expect(plan).toEqual({
      ok: true,
      value: { ...TO, refundable: "15.1001", reason: "overpaid" },
    });
  });

  it("a partial order refunds everything received, net of live refunds, not of failed ones", () => {
    const plan = refundPlan({
      state: "partially_paid",
      refundAddress: TO,
      attempts: [
        attempt({ status: "expired", cryptoReceived: "10.5" }),
        attempt({ number: 2, status: "partially_paid", cryptoReceived: "9.25" }),
      ],
      refunds: [
        {
          orderId: "cc-1-refund",
          cryptoCurrencyCode: "USDT_TRC20",
          amount: "19.75",
          status: "failed",
        },
        {
          orderId: "cc-1-refund-2",
          cryptoCurrencyCode: "USDT_TRC20",
          amount: "4",
          status: "created",
        },
      ],
    });
    expect(plan.ok && plan.value).toMatchObject({ refundable: "15.75", reason: "partially_paid" });
  });

  it("refuses a partial order while an attempt is open: the shopper may still pay the rest", () => {
    const plan = refundPlan({
      state: "partially_paid",
      refundAddress: TO,
      attempts: [
        attempt({ status: "expired", cryptoReceived: "10" }),
        attempt({ number: 2, status: "partially_paid", open: true, cryptoReceived: "5" }),
      ],
      refunds: [],
    });
    expect(plan.ok).toBe(false);
    expect(!plan.ok && [plan.status, plan.code]).toEqual([409, "attempt_open"]);
    expect(!plan.ok && plan.message).toContain("attempt 2 is still partially paid");
  });

  it("says why there is nothing to refund: all refunded, or money in another currency", () => {
    const refunded = refundPlan({
      state: "paid",
      refundAddress: TO,
      attempts: [attempt({ status: "overpaid", cryptoReceived: "64.9" })],
      refunds: [
        {
          orderId: "cc-1-refund",
          cryptoCurrencyCode: "USDT_TRC20",
          amount: "15",
          status: "completed",
        },
      ],
    });
    expect(!refunded.ok && [refunded.code, refunded.message]).toEqual([
      "nothing_to_refund",
      "Nothing to refund: 15 USDT_TRC20 was already refunded.",
    ]);
    const otherCurrency = refundPlan({
      state: "paid",
      refundAddress: TO,
      attempts: [
        attempt({ status: "overpaid", cryptoCurrencyCode: "TRX", cryptoReceived: "64.9" }),
      ],
      refunds: [],
    });
    expect(!otherCurrency.ok && otherCurrency.message).toContain("paid in TRX");
  });

  it("needs the shopper's refund address", () => {
    const plan = refundPlan({
      state: "paid",
      refundAddress: null,
      attempts: [attempt({ status: "overpaid", cryptoReceived: "64.9" })],
      refunds: [],
    });
    expect(!plan.ok && [plan.status, plan.code]).toEqual([409, "refund_address_missing"]);
  });
});
