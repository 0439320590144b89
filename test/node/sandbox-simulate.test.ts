/**
 * Admin "Simulate payment": status sequences with one webhook per change, the transition
 * graph, partial payments that accumulate, exact settlement maths and balance credit.
 */
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { balanceOf, useSandbox, webhooksFor } from "./sandbox-kit.ts";

Big.DP = 60;
const API_KEY = "sk_simulate_test";
const ACCOUNT = "11111111-1111-4111-8111-111111111111";

const { sb, api } = useSandbox(API_KEY, ACCOUNT);

/** `amount` as a number, or as the exact text of a JSON numeral (sent as a number). */
async function newInvoice(amount: number | string, currency?: string, fiat = "USD") {
  const numeral = typeof amount === "number" ? JSON.stringify(amount) : amount;
  const r = await api(
    "POST",
    "/invoice",
    `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"${fiat}","amount":${numeral}}`,
  );
  const id: string = r.json.data.id;
  if (currency) {
    await api("POST", "/x-sandbox/invoice/lock-currency", {
      accountId: ACCOUNT,
      id,
      cryptoCurrencyCode: currency,
    });
  }
  return id;
}

async function simulate(ref: string, body: Record<string, unknown>) {
  const res = await fetch(`${sb.url}/sandbox/invoices/${ref}/simulate`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.clone().text(), json: await res.json() };
}

async function hooks(objectId: string) {
  return (await webhooksFor(sb.url, objectId)).map((h) => JSON.parse(h.body));
}

const balance = (code: string) => balanceOf(sb.url, code);

describe("invoice simulation", () => {
  it("paid: locks the default currency, goes processing → paid, settles and credits exactly", async () => {
    const before = await balance("USDT_TRC20");
    const id = await newInvoice("123.45");
    const r = await simulate(id, { action: "paid" });
    expect(r.status).toBe(200);
    const inv = r.json.data;
    expect(inv).toMatchObject({
      status: "paid",
      cryptoCurrencyCode: "USDT_TRC20",
      cryptoAmountExpected: 123.45,
      cryptoAmountReceived: 123.45,
    });
    expect(inv.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(inv.paidAt).toEqual(expect.any(String));
    const paid = new Big("123.45");
    const commission = paid.times("0.005").round(6, Big.roundUp);
    const net = paid.minus(1).minus(commission);
    expect(commission.toFixed()).toBe("0.61725");
    const networkFee = new Big(1).div("0.12").round(6, Big.roundUp);
    // Every field of the SDK's SettlementBreakdown; each USD value = its amount × the rate.
    expect(inv.settlement).toEqual({
      amountPaid: 123.45,
      amountPaidUsd: 123.45,
      commissionAmount: 0.61725,
      commissionAmountUsd: 0.62,
      networkFeeAmount: Number(networkFee.toFixed()),
      networkFeeAmountUsd: Number(networkFee.times("0.12").round(2, Big.roundHalfUp).toFixed()),
      networkFeeCurrencyCode: "TRX",
      depositNetworkFeeAmount: 1,
      depositNetworkFeeAmountUsd: 1,
      netAmount: Number(net.toFixed()),
      netAmountUsd: Number(net.round(2, Big.roundHalfUp).toFixed()),
      txHash: inv.txHash,
      completedAt: inv.paidAt,
    });
    expect(r.text).toContain(`"netAmount":${net.toFixed()},`);
    expect((await balance("USDT_TRC20")).minus(before).toFixed()).toBe(net.toFixed());
    const events = await hooks(id);
    expect(events.map((e: { data: { status: string } }) => e.data.status)).toEqual([
      "processing",
      "paid",
    ]);
    expect(events[1].data.previousStatus).toBe("processing");
    expect(events[0].data.previousStatus).toBe("created");
  });

  it("accepts an orderId as the reference", async () => {
    await api("POST", "/invoice", {
      accountId: ACCOUNT,
      fiatCurrencyCode: "USD",
      amount: 5,
      orderId: "sim-by-order",
    });
    const r = await simulate("sim-by-order", { action: "processing" });
    expect(r.json.data.status).toBe("processing");
    expect((await simulate("nope", { action: "paid" })).status).toBe(404);
  });

  it("partial payments accumulate and fees are deducted once in the final settlement", async () => {
    const before = await balance("USDT_TRC20");
    const id = await newInvoice(100, "USDT_TRC20");
    const part = await simulate(id, { action: "partial", amount: "30.5" });
    expect(part.json.data).toMatchObject({ status: "partially_paid", cryptoAmountReceived: 30.5 });
    expect(part.json.data.settlement.amountPaid).toBe(30.5);
    const afterPart = (await balance("USDT_TRC20")).minus(before);
    expect(afterPart.toFixed()).toBe(
      new Big("30.5")
        .minus(1)
        .minus(new Big("30.5").times("0.005").round(6, Big.roundUp))
        .toFixed(),
    );
    const rest = await simulate(id, { action: "paid" });
    expect(rest.json.data).toMatchObject({ status: "paid", cryptoAmountReceived: 100 });
    expect(rest.json.data.settlement).toMatchObject({
      amountPaid: 100,
      commissionAmount: 0.5,
      depositNetworkFeeAmount: 1,
      netAmount: 98.5,
    });
    expect((await balance("USDT_TRC20")).minus(before).toFixed()).toBe("98.5");
    expect(rest.json.data.txHash).not.toBe(part.json.data.txHash);
    const statuses = (await hooks(id)).map((e: { data: { status: string } }) => e.data.status);
    expect(statuses).toEqual(["processing", "partially_paid", "paid"]);
  });

  it("partial defaults to half of what is missing, rounded down", async () => {
    const id = await newInvoice(1, "BTC");
    const r = await simulate(id, { action: "partial" });
    const expected = new Big(1).div(65000).round(8, Big.roundUp);
    expect(expected.toFixed()).toBe("0.00001539");
    expect(r.json.data.cryptoAmountExpected).toBe(0.00001539);
    expect(r.text).toContain('"cryptoAmountReceived":0.00000769,');
  });

  it("over receives what is missing plus the given extra (default +10 %)", async () => {
    const a = await newInvoice(50, "USDT_TRC20");
    const given = await simulate(a, { action: "over", amount: "2.5" });
    expect(given.json.data).toMatchObject({ status: "overpaid", cryptoAmountReceived: 52.5 });
    const b = await newInvoice(50, "USDT_TRC20");
    const dflt = await simulate(b, { action: "over" });
    expect(dflt.json.data.cryptoAmountReceived).toBe(55);
  });

  it("suspend then paid, and processingFirst:false only works from processing", async () => {
    const id = await newInvoice(20, "USDT_TRC20");
    expect((await simulate(id, { action: "processing" })).json.data.status).toBe("processing");
    expect((await simulate(id, { action: "suspend" })).json.data.status).toBe("suspended");
    const paid = await simulate(id, { action: "paid", processingFirst: false });
    expect(paid.json.data.status).toBe("paid");
    const statuses = (await hooks(id)).map((e: { data: { status: string } }) => e.data.status);
    expect(statuses).toEqual(["processing", "suspended", "paid"]);
    const fresh = await newInvoice(20, "USDT_TRC20");
    const direct = await simulate(fresh, { action: "paid", processingFirst: false });
    expect([direct.status, direct.json.code]).toEqual([
      409,
      "exceptions.sandbox.invalidTransition",
    ]);
  });

  it("refuses invalid moves with 409 and changes nothing", async () => {
    const id = await newInvoice(10, "USDT_TRC20");
    await simulate(id, { action: "paid" });
    const before = await balance("USDT_TRC20");
    for (const action of ["fail", "cancel", "expire", "paid", "partial", "suspend", "processing"]) {
      const r = await simulate(id, { action });
      expect([action, r.status, r.json.code]).toEqual([
        action,
        409,
        "exceptions.sandbox.invalidTransition",
      ]);
    }
    expect((await balance("USDT_TRC20")).eq(before)).toBe(true);
    expect(await hooks(id)).toHaveLength(2);
    const created = await newInvoice(10);
    expect((await simulate(created, { action: "suspend" })).status).toBe(409);
    const bad = await simulate(created, { action: "explode" });
    expect([bad.status, bad.json.code]).toEqual([400, "exceptions.validation.invalidBody"]);
    const tooBig = await newInvoice(10, "USDT_TRC20");
    const partial = await simulate(tooBig, { action: "partial", amount: "10" });
    expect([partial.status, partial.json.code]).toEqual([400, "exceptions.sandbox.invalidAmount"]);
  });

  it("fail, expire and cancel follow the graph with webhooks", async () => {
    const a = await newInvoice(10);
    expect((await simulate(a, { action: "fail" })).json.data.status).toBe("failed");
    const b = await newInvoice(10);
    expect((await simulate(b, { action: "expire" })).json.data.status).toBe("expired");
    const c = await newInvoice(10);
    expect((await simulate(c, { action: "cancel" })).json.data.status).toBe("cancelled");
    const d = await newInvoice(10, "TRX");
    await simulate(d, { action: "partial" });
    expect((await simulate(d, { action: "expire" })).json.data.status).toBe("expired");
    for (const [id, status] of [
      [a, "failed"],
      [b, "expired"],
      [c, "cancelled"],
    ] as const) {
      const events = await hooks(id);
      expect(events.map((e: { data: { status: string } }) => e.data.status)).toEqual([status]);
    }
  });
});
