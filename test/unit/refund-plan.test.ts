/**
 * What a refund of an order may pay back (`order/refunds/plan.ts`), from the narrow facts the order
 * gives (`order/refund-facts.ts`): exact decimals, the refund address's currency only, never
 * while the shopper may still pay, and net of live refunds (failed ones returned nothing).
 */
import { describe, expect, it } from "vitest";
import { type RefundFacts, refundPlan } from "../../worker/order/refunds/plan.ts";

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

  it("a paid order also refunds what its attempts paid beyond its amount, at each attempt's own rate, rounded down", () => {
    // 49.90 USD: attempt 1 got 20 of 49.9 USDT, ended; attempt 2 (29.90 USD at 29.9 USDT) paid;
    // then the rest of attempt 1 landed late: 79.80 paid, 29.90 beyond the amount.
    const facts: RefundFacts = {
      state: "paid",
      amount: "49.90",
      refundAddress: TO,
      attempts: [
        attempt({
          status: "paid",
          cryptoReceived: "49.9",
          fiatAmount: "49.90",
          fiatApplied: "49.90",
          decimalPlaces: 6,
        }),
        attempt({
          number: 2,
          status: "paid",
          cryptoExpected: "29.9",
          cryptoReceived: "29.9",
          fiatAmount: "29.90",
          fiatApplied: "29.90",
          decimalPlaces: 6,
        }),
      ],
      refunds: [],
    };
    expect(refundPlan(facts)).toEqual({
      ok: true,
      value: { ...TO, refundable: "29.9", reason: "overpaid" },
    });
    // Another rate on the attempt that absorbs the excess: 10.00 USD beyond the amount, at
    // 3 TRX-like units per USD with 2 places, 33.333… → 33.33 (down: the order stays paid).
    const rated: RefundFacts = {
      ...facts,
      amount: "40.00",
      attempts: [
        attempt({
          status: "paid",
          cryptoExpected: "10",
          cryptoReceived: "10",
          fiatAmount: "20.00",
          fiatApplied: "20.00",
          decimalPlaces: 2,
        }),
        attempt({
          number: 2,
          status: "paid",
          cryptoExpected: "100",
          cryptoReceived: "100",
          fiatAmount: "30.00",
          fiatApplied: "30.00",
          decimalPlaces: 2,
        }),
      ],
    };
    expect(refundPlan(rated)).toEqual({
      ok: true,
      value: { ...TO, refundable: "33.33", reason: "overpaid" },
    });
    // Net of a live refund already made; a second one finds nothing left.
    const refunds = [
      {
        orderId: "cc-1-refund",
        cryptoCurrencyCode: "USDT_TRC20",
        amount: "29.9",
        status: "completed" as const,
      },
    ];
    const again = refundPlan({ ...facts, refunds });
    expect(again.ok ? null : again.code).toBe("nothing_to_refund");
  });

  it("an excess beyond the amount is returned in the address's currency when an attempt in it can carry it; otherwise the other currency is named", () => {
    const usdt = attempt({
      status: "paid",
      cryptoReceived: "49.9",
      fiatAmount: "49.90",
      fiatApplied: "49.90",
      decimalPlaces: 6,
    });
    const trx = attempt({
      number: 2,
      status: "paid",
      cryptoCurrencyCode: "TRX",
      cryptoExpected: "100",
      cryptoReceived: "100",
      fiatAmount: "29.90",
      fiatApplied: "29.90",
      decimalPlaces: 6,
    });
    const facts: RefundFacts = {
      state: "paid",
      amount: "49.90",
      refundAddress: TO,
      attempts: [usdt, trx],
      refunds: [],
    };
    // 29.90 USD beyond the amount, returned as USDT the order received: what stays (20 USDT
    // + 100 TRX) is still worth the order's amount.
    expect(refundPlan(facts)).toEqual({
      ok: true,
      value: { ...TO, refundable: "29.9", reason: "overpaid" },
    });
    const trxOnly = refundPlan({
      ...facts,
      attempts: [{ ...usdt, cryptoCurrencyCode: "TRX" }, trx],
    });
    expect(trxOnly.ok ? null : trxOnly.message).toMatch(/paid in TRX/);
  });
});
