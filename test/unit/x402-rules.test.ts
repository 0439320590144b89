/**
 * The x402 rules as pure functions: what an order offers (`x402Terms`), whether a payload pays
 * exactly that (`checkPayload`), and what one fact does to a payment (`settlementStep`).
 */
import { describe, expect, it } from "vitest";
import type { X402Settings } from "../../worker/core/config/x402-settings.ts";
import { usdcOn } from "../../worker/lib/x402/networks.ts";
import type { PaymentRequirements } from "../../worker/lib/x402/protocol.ts";
import type { X402PaymentRow } from "../../worker/order/x402/payments-table.ts";
import { settlementStep, WORKER_GAVE_UP } from "../../worker/order/x402/settlement-step.ts";
import { checkPayload, offerOf, x402Terms } from "../../worker/order/x402/x402-terms.ts";

const PAY_TO = "0x5A4Db0c0FfEE000000000000000000000000d3e0";
const SETTINGS: X402Settings = {
  payTo: PAY_TO,
  asset: usdcOn("eip155:84532")!,
  facilitatorUrl: "https://x/x402",
  maxTimeoutSeconds: 300,
};
const OPEN = {
  currency: "USD",
  due: "12.34",
  state: "unpaid",
  refundHeld: false,
  latest: null,
} as const;
const URL_ = "https://pay.example/v1/checkouts/abc/x402";

function row(over: Partial<X402PaymentRow> = {}): X402PaymentRow {
  return {
    nonce: `0x${"11".repeat(32)}`,
    digest: "d",
    payer: "0x1111111111111111111111111111111111111111",
    value: "12340000",
    fiatAmount: "12.34",
    network: "eip155:84532",
    asset: SETTINGS.asset.address,
    payTo: PAY_TO,
    status: "settling",
    transaction: null,
    settlementId: null,
    errorReason: null,
    applied: false,
    answer: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    confirmedAt: null,
    nextReadAt: 0,
    reads: 0,
    ...over,
  };
}

describe("x402Terms", () => {
  it("offers what is due in exact USDC units to the merchant's wallet (USD 12.34 → 12340000)", () => {
    const terms = x402Terms(SETTINGS, OPEN);
    expect(terms).toEqual({
      ok: true,
      requirements: {
        scheme: "exact",
        network: "eip155:84532",
        asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        amount: "12340000",
        payTo: PAY_TO,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    });
    if (terms.ok) expect(offerOf(SETTINGS, terms.requirements).amount).toBe("12.340000");
    // A partly paid order is offered its rest.
    const rest = x402Terms(SETTINGS, { ...OPEN, due: "0.01", state: "partially_paid" });
    expect(rest.ok && rest.requirements.amount).toBe("10000");
  });

  it.each([
    ["x402 off", null, OPEN, "off"],
    ["a EUR order", SETTINGS, { ...OPEN, currency: "EUR" }, "currency"],
    ["a paid order", SETTINGS, { ...OPEN, state: "paid", due: "0.00" }, "paid"],
    ["a refunded order", SETTINGS, { ...OPEN, state: "refunded" }, "refunded"],
    ["a refund holding it", SETTINGS, { ...OPEN, refundHeld: true }, "refunded"],
    ["a payment settling", SETTINGS, { ...OPEN, latest: row() }, "in_flight"],
    [
      "a payment submitted",
      SETTINGS,
      { ...OPEN, latest: row({ status: "submitted" }) },
      "in_flight",
    ],
    ["a payment unknown", SETTINGS, { ...OPEN, latest: row({ status: "unknown" }) }, "in_flight"],
  ] as const)("offers nothing for %s", (_what, settings, input, why) => {
    expect(x402Terms(settings, input)).toEqual({ ok: false, why });
  });

  it("a failed payment leaves the order payable", () => {
    expect(x402Terms(SETTINGS, { ...OPEN, latest: row({ status: "failed" }) }).ok).toBe(true);
  });
});

describe("checkPayload", () => {
  const terms = x402Terms(SETTINGS, OPEN);
  if (!terms.ok) throw new Error("offered");
  const req: PaymentRequirements = terms.requirements;
  const now = 1_800_000_000;
  const payload = (auth: Record<string, unknown> = {}, over: Record<string, unknown> = {}) => ({
    x402Version: 2,
    resource: { url: URL_ },
    accepted: req,
    payload: {
      signature: `0x${"ab".repeat(65)}`,
      authorization: {
        from: "0x1111111111111111111111111111111111111111",
        to: PAY_TO,
        value: "12340000",
        validAfter: "0",
        validBefore: String(now + 300),
        nonce: `0x${"22".repeat(32)}`,
        ...auth,
      },
    },
    ...over,
  });

  it("accepts exactly the terms (addresses in any case)", () => {
    const ok = checkPayload(payload({ to: PAY_TO.toLowerCase() }), req, URL_, now);
    expect("code" in ok).toBe(false);
  });

  it.each([
    ["not an object", "nope", "x402_payload_invalid"],
    ["version 1", payload({}, { x402Version: 1 }), "x402_payload_invalid"],
    ["no authorization", payload({}, { payload: { signature: "0x" } }), "x402_payload_invalid"],
    ["a number as value", payload({ value: 12340000 }), "x402_payload_invalid"],
    [
      "a short signature",
      payload(
        {},
        { payload: { signature: "0xab", authorization: payload().payload.authorization } },
      ),
      "x402_payload_invalid",
    ],
    ["another amount", payload({ value: "12339999" }), "x402_payload_mismatch"],
    [
      "another recipient",
      payload({ to: "0x2222222222222222222222222222222222222222" }),
      "x402_payload_mismatch",
    ],
    [
      "accepted another wallet",
      payload({}, { accepted: { ...req, payTo: "0x2222222222222222222222222222222222222222" } }),
      "x402_payload_mismatch",
    ],
    [
      "accepted another network",
      payload({}, { accepted: { ...req, network: "eip155:8453" } }),
      "x402_payload_mismatch",
    ],
    [
      "accepted another token",
      payload({}, { accepted: { ...req, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" } }),
      "x402_payload_mismatch",
    ],
    [
      "another order's resource",
      payload({}, { resource: { url: "https://pay.example/v1/checkouts/other/x402" } }),
      "x402_payload_mismatch",
    ],
    ["expired", payload({ validBefore: String(now) }), "x402_payload_mismatch"],
    ["valid too long", payload({ validBefore: String(now + 3600) }), "x402_payload_mismatch"],
  ] as const)("refuses %s", (_what, decoded, code) => {
    const refused = checkPayload(decoded, req, URL_, now);
    expect("code" in refused && refused.code).toBe(code);
  });
});

describe("settlementStep", () => {
  const NOW = "2026-01-01T00:01:00.000Z";
  it("moves forward only: settling → submitted → confirmed; older or equal facts change nothing", () => {
    const submitted = settlementStep(row(), { status: "submitted", transaction: "0xt" }, NOW)!;
    expect(submitted).toMatchObject({ status: "submitted", transaction: "0xt" });
    const confirmed = settlementStep(submitted, { status: "confirmed", confirmedAt: NOW }, NOW)!;
    expect(confirmed).toMatchObject({ status: "confirmed", confirmedAt: NOW, nextReadAt: 0 });
    expect(settlementStep(confirmed, { status: "submitted" }, NOW)).toBeNull();
    expect(settlementStep(confirmed, { status: "confirmed" }, NOW)).toBeNull();
    expect(settlementStep(confirmed, { status: "failed", errorReason: "x" }, NOW)).toBeNull();
  });

  it("a late submitted fact fills what was missing (the settlement id) and nothing else", () => {
    const before = row({ status: "submitted", transaction: "0xt" });
    expect(
      settlementStep(before, { status: "submitted", settlementId: "s1" }, NOW)?.settlementId,
    ).toBe("s1");
    expect(
      settlementStep(
        { ...before, settlementId: "s1" },
        { status: "submitted", settlementId: "s1" },
        NOW,
      ),
    ).toBeNull();
  });

  it("the service's confirmed overrides a failure the worker concluded itself, not the service's own failure", () => {
    const gaveUp = row({ status: "failed", errorReason: WORKER_GAVE_UP });
    expect(settlementStep(gaveUp, { status: "confirmed" }, NOW)?.status).toBe("confirmed");
    const failed = row({ status: "failed", errorReason: "invalid_exact_evm_transaction_failed" });
    expect(settlementStep(failed, { status: "confirmed" }, NOW)).toBeNull();
  });
});
