/**
 * Deposits and withdrawals: idempotent creation, exact completion credit, the quote collapse
 * per (accountId, orderId), re-quote after expiry, commit exactly once, and each bad input.
 */
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../demo/sandbox/app.ts";
import { balanceOf, useSandbox, webhooksFor } from "./sandbox-kit.ts";

Big.DP = 60;
const API_KEY = "sk_funds_test";
const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRON_TO2 = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
const EVM_TO = "0x52908400098527886E0F7030069857D2E4169EE7";
let clock = Date.parse("2030-06-01T12:00:00.000Z");

const { sb, api } = useSandbox(API_KEY, ACCOUNT, { now: () => new Date(clock) });

const balance = (code: string) => balanceOf(sb.url, code);
async function setBalance(code: string, amount: string) {
  await fetch(`${sb.url}/sandbox/balances`, {
    method: "POST",
    body: JSON.stringify({ cryptoCurrencyCode: code, amount }),
  });
}
async function adminSim(kind: string, ref: string, body: Record<string, unknown>) {
  const res = await fetch(`${sb.url}/sandbox/${kind}/${ref}/simulate`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}
async function hookStatuses(objectId: string) {
  return (await webhooksFor(sb.url, objectId)).map((h) => `${h.event}:${h.status}`);
}
const deposit = (body: Record<string, unknown>) =>
  api("POST", "/deposit", { accountId: ACCOUNT, ...body });
const quote = (body: Record<string, unknown>) =>
  api("POST", "/withdrawal/quote", { accountId: ACCOUNT, ...body });
/** A TRX withdrawal of `amount` to TRON_TO, quoted and committed: `{q, c}` as answered. */
async function trxCommitted(amount: number, orderId: string) {
  const q = await quote({ cryptoCurrencyCode: "TRX", address: TRON_TO, amount, orderId });
  const c = await api("POST", "/withdrawal/commit", { quoteId: q.json.data.quoteId });
  return { q, c };
}

describe("deposits", () => {
  it("creates a deposit with a network address and a PNG QR code; repeats return it", async () => {
    const r = await deposit({ cryptoCurrencyCode: "USDT_TRC20", orderId: "dep-1" });
    expect(r.status).toBe(201);
    const d = r.json.data;
    expect(Object.keys(d).sort()).toEqual(
      ["id", "minimumAmount", "address", "createdAt", "expiresAt", "qrCode"].sort(),
    );
    expect(d.address).toMatch(/^T[A-Za-z1-9]{33}$/);
    expect(r.text).toContain('"minimumAmount":5,');
    expect(d.qrCode).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(d.qrCode.split(",")[1], "base64");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const again = await deposit({ cryptoCurrencyCode: "USDT_TRC20", orderId: "dep-1" });
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(d);
    // The same orderId for another currency is refused, never answered with the USDT address.
    const otherCurrency = await deposit({ cryptoCurrencyCode: "TRX", orderId: "dep-1" });
    expect([otherCurrency.status, otherCurrency.json.code]).toEqual([
      409,
      "exceptions.deposit.orderIdAlreadyExists",
    ]);
    const other = await deposit({ cryptoCurrencyCode: "USDT_TRC20", orderId: "dep-2" });
    expect(other.json.data.id).not.toBe(d.id);
  });

  it("collapses concurrent creates with one orderId", async () => {
    const before = sb.sandbox.state.deposits.size;
    const rs = await Promise.all(
      Array.from({ length: 10 }, () => deposit({ cryptoCurrencyCode: "ETH", orderId: "dep-race" })),
    );
    expect(new Set(rs.map((r) => r.json.data.id)).size).toBe(1);
    expect(sb.sandbox.state.deposits.size).toBe(before + 1);
    expect(rs[0]!.json.data.address).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it("rejects bad bodies with their codes", async () => {
    const before = sb.sandbox.state.deposits.size;
    const noOrder = await deposit({ cryptoCurrencyCode: "BTC" });
    expect([noOrder.status, noOrder.json.code]).toEqual([400, "exceptions.validation.invalidBody"]);
    const noCur = await deposit({ orderId: "x" });
    expect(noCur.json.code).toBe("exceptions.validation.invalidBody");
    const unknown = await deposit({ cryptoCurrencyCode: "DOGE", orderId: "x" });
    expect([unknown.status, unknown.json.code]).toEqual([
      400,
      "exceptions.deposit.currencyNotFound",
    ]);
    expect(sb.sandbox.state.deposits.size).toBe(before);
  });

  it("GET /deposit is the SDK's Deposit (no settlement member before one); completion credits net of fee and commission", async () => {
    const r = await deposit({ cryptoCurrencyCode: "USDT_TRC20", orderId: "dep-credit" });
    const id = r.json.data.id;
    const got = await api("GET", `/deposit?accountId=${ACCOUNT}&orderId=dep-credit`);
    expect(got.json.data).toEqual({
      id,
      accountId: ACCOUNT,
      orderId: "dep-credit",
      status: "created",
      cryptoCurrencyCode: "USDT_TRC20",
      address: r.json.data.address,
      expiresAt: r.json.data.expiresAt,
      createdAt: r.json.data.createdAt,
      updatedAt: r.json.data.createdAt,
    });
    clock += 1_000;
    const before = await balance("USDT_TRC20");
    const done = await adminSim("deposits", "dep-credit", {
      action: "completed",
      amount: "1234.567891",
    });
    expect(done.json.data.status).toBe("completed");
    const amount = new Big("1234.567891");
    const commission = amount.times("0.005").round(6, Big.roundUp);
    const net = amount.minus(1).minus(commission);
    expect(commission.toFixed()).toBe("6.17284");
    expect(done.json.data.settlement).toMatchObject({
      amountPaid: 1234.567891,
      amountPaidUsd: 1234.57,
      commissionAmount: 6.17284,
      commissionAmountUsd: 6.17,
      depositNetworkFeeAmount: 1,
      depositNetworkFeeAmountUsd: 1,
      netAmount: Number(net.toFixed()),
      netAmountUsd: 1227.4,
    });
    expect(done.json.data.updatedAt).toBe(new Date(clock).toISOString());
    expect((await balance("USDT_TRC20")).minus(before).toFixed()).toBe(net.toFixed());
    expect(await hookStatuses(id)).toEqual([
      "deposit.statusChanged:processing",
      "deposit.statusChanged:completed",
    ]);
    const byId = await api("GET", `/deposit?accountId=${ACCOUNT}&id=${id}`);
    expect(byId.json.data.status).toBe("completed");
    const cancel = await adminSim("deposits", id, { action: "cancel" });
    expect([cancel.status, cancel.json.code]).toEqual([
      409,
      "exceptions.sandbox.invalidTransition",
    ]);
    const missing = await api("GET", `/deposit?accountId=${ACCOUNT}&id=nope`);
    expect(missing.status).toBe(404);
  });

  it("deposit webhooks carry the paying transaction and the amount received (SDK DepositStatusChangedWebhookData)", async () => {
    const r = await deposit({ cryptoCurrencyCode: "TRX", orderId: "dep-facts", customerId: "c-1" });
    const id = r.json.data.id;
    await adminSim("deposits", "dep-facts", { action: "completed", amount: "50" });
    const hooks = (await (await fetch(`${sb.url}/sandbox/webhooks?objectId=${id}`)).json()).data;
    const [processing, completed] = hooks.map((h: { body: string }) => JSON.parse(h.body).data);
    for (const data of [processing, completed]) {
      expect(data).toMatchObject({
        accountId: ACCOUNT,
        orderId: "dep-facts",
        customerId: "c-1",
        depositTransactionHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        actuallyReceivedAmount: 50,
        actuallyReceivedAmountUsd: 6,
      });
    }
    expect(processing).not.toHaveProperty("settlement");
    expect(completed.settlement).toMatchObject({
      amountPaid: 50,
      txHash: completed.depositTransactionHash,
    });
    const cancelled = await deposit({ cryptoCurrencyCode: "TRX", orderId: "dep-none" });
    await adminSim("deposits", "dep-none", { action: "cancel" });
    const [hook] = (
      await (await fetch(`${sb.url}/sandbox/webhooks?objectId=${cancelled.json.data.id}`)).json()
    ).data;
    expect(JSON.parse(hook.body).data).toMatchObject({
      status: "cancelled",
      depositTransactionHash: null,
      actuallyReceivedAmount: null,
      actuallyReceivedAmountUsd: null,
    });
  });

  it("charges the tenant's one commission on every currency (BTC 0.5 %)", async () => {
    await deposit({ cryptoCurrencyCode: "BTC", orderId: "dep-btc" });
    const before = await balance("BTC");
    const done = await adminSim("deposits", "dep-btc", {
      action: "completed",
      amount: "0.01234567",
    });
    const amount = new Big("0.01234567");
    const commission = amount.times("0.005").round(8, Big.roundUp);
    expect(done.json.data.settlement.commissionAmount).toBe(Number(commission.toFixed()));
    const net = amount.minus("0.00001").minus(commission);
    expect((await balance("BTC")).minus(before).toFixed()).toBe(net.toFixed());
  });
});

describe("withdrawals", () => {
  it("quotes with the fee in the base coin and in the withdrawal currency (rounded up)", async () => {
    const r = await quote({
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON_TO,
      amount: 100,
      orderId: "wd-fee",
    });
    expect(r.status).toBe(201);
    const q = r.json.data;
    const feeIn = new Big("13.5").times("0.12").round(6, Big.roundUp);
    expect(q).not.toHaveProperty("accountId");
    expect(q).toMatchObject({
      orderId: "wd-fee",
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON_TO,
      amount: 100,
      autoConvert: null,
      fee: {
        feeNative: 13.5,
        feeCurrency: "TRX",
        feeInCryptoCurrencyCode: Number(feeIn.toFixed()),
      },
      totalDeduction: Number(new Big(100).plus(feeIn).toFixed()),
      expiresAt: new Date(clock + 60_000).toISOString(),
    });
    expect(r.text).toContain('"totalDeduction":101.62,');
    const eth = await quote({
      cryptoCurrencyCode: "ETH",
      address: EVM_TO,
      amount: 0.01,
      orderId: "wd-eth",
    });
    expect(eth.json.data.fee).toMatchObject({
      feeNative: 0.0004,
      feeCurrency: "ETH",
      feeInCryptoCurrencyCode: 0.0004,
    });
    expect(eth.text).toContain('"totalDeduction":0.0104,');
  });

  it("collapses the same (accountId, orderId) to one quote, and re-quotes after expiry", async () => {
    const body = {
      cryptoCurrencyCode: "TRX",
      address: TRON_TO,
      amount: 50,
      orderId: "wd-collapse",
    };
    const a = await quote(body);
    const b = await quote({ ...body, amount: 50.0 });
    expect(b.status).toBe(200);
    expect(b.json.data.quoteId).toBe(a.json.data.quoteId);
    // Other terms for the same orderId are refused, never answered with the old quote.
    for (const other of [
      { amount: 60 },
      { address: TRON_TO2 },
      { cryptoCurrencyCode: "USDT_TRC20" },
    ]) {
      const c = await quote({ ...body, ...other });
      expect([c.status, c.json.code]).toEqual([409, "exceptions.withdrawal.orderIdAlreadyExists"]);
    }
    clock += 61_000;
    const c = await quote(body);
    expect(c.status).toBe(201);
    expect(c.json.data.quoteId).not.toBe(a.json.data.quoteId);
    const stale = await api("POST", "/withdrawal/commit", { quoteId: a.json.data.quoteId });
    expect([stale.status, stale.json.code]).toEqual([409, "exceptions.withdrawal.quoteExpired"]);
  });

  it("expires a quote at once through POST /sandbox/withdrawal-quotes/:ref/expire", async () => {
    const body = { cryptoCurrencyCode: "TRX", address: TRON_TO, amount: 40, orderId: "wd-expire" };
    const a = await quote(body);
    expect(a.json.data.expiresAt).toBe(new Date(clock + 60_000).toISOString());
    const expire = (ref: string) =>
      fetch(`${sb.url}/sandbox/withdrawal-quotes/${ref}/expire`, { method: "POST" }).then(
        async (r) => ({ status: r.status, json: await r.json() }),
      );
    // By orderId: the account's current quote for it; its expiresAt becomes now.
    const byOrder = await expire("wd-expire");
    expect(byOrder.status).toBe(200);
    expect(byOrder.json.data).toMatchObject({
      quoteId: a.json.data.quoteId,
      expiresAt: new Date(clock).toISOString(),
    });
    const before = await balance("TRX");
    const stale = await api("POST", "/withdrawal/commit", { quoteId: a.json.data.quoteId });
    expect([stale.status, stale.json.code]).toEqual([409, "exceptions.withdrawal.quoteExpired"]);
    // The same orderId and terms now get a fresh quote with a new quoteId.
    const b = await quote(body);
    expect(b.status).toBe(201);
    expect(b.json.data.quoteId).not.toBe(a.json.data.quoteId);
    // By quoteId; the old quote stays expired.
    expect((await expire(b.json.data.quoteId)).status).toBe(200);
    expect((await expire(a.json.data.quoteId)).json.data.expiresAt).toBe(
      byOrder.json.data.expiresAt,
    );
    const c = await quote(body);
    const ok = await api("POST", "/withdrawal/commit", { quoteId: c.json.data.quoteId });
    expect([ok.status, ok.json.data.quoteId]).toEqual([201, c.json.data.quoteId]);
    expect(before.minus(await balance("TRX")).eq(c.json.data.totalDeduction)).toBe(true);
    const committed = await expire("wd-expire");
    expect([committed.status, committed.json.code]).toEqual([
      409,
      "exceptions.sandbox.invalidTransition",
    ]);
    const unknown = await expire("no-such-quote");
    expect([unknown.status, unknown.json.code]).toEqual([404, "exceptions.withdrawal.notFound"]);
  });

  it("takes the quote lifetime from the quoteLifetimeMs option", async () => {
    const short = createSandbox({
      apiKey: API_KEY,
      accountId: ACCOUNT,
      webhookUrl: null,
      quoteLifetimeMs: 5_000,
      now: () => new Date(clock),
    });
    try {
      const res = await short.app.request("/withdrawal/quote", {
        method: "POST",
        headers: { "x-tenant-api-key": API_KEY, "content-type": "application/json" },
        body: JSON.stringify({
          accountId: ACCOUNT,
          cryptoCurrencyCode: "TRX",
          address: TRON_TO,
          amount: 40,
          orderId: "wd-short",
        }),
      });
      const q = (await res.json()).data;
      expect(q.expiresAt).toBe(new Date(clock + 5_000).toISOString());
      clock += 5_000;
      const commit = await short.app.request("/withdrawal/commit", {
        method: "POST",
        headers: { "x-tenant-api-key": API_KEY, "content-type": "application/json" },
        body: JSON.stringify({ quoteId: q.quoteId }),
      });
      expect([commit.status, (await commit.json()).code]).toEqual([
        409,
        "exceptions.withdrawal.quoteExpired",
      ]);
    } finally {
      short.dispose();
    }
  });

  it("commits once under 20 concurrent commits, debits totalDeduction exactly once, then 409s the orderId", async () => {
    const before = await balance("USDT_TRC20");
    const q = await quote({
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON_TO,
      amount: 250.123456,
      orderId: "wd-once",
    });
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        api("POST", "/withdrawal/commit", { quoteId: q.json.data.quoteId, customData: { n: 1 } }),
      ),
    );
    expect(new Set(rs.map((r) => r.json.data.id)).size).toBe(1);
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    const w = rs[0]!.json.data;
    expect(w).toMatchObject({
      orderId: "wd-once",
      accountId: ACCOUNT,
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON_TO,
      amount: 250.123456,
      status: "created",
      transactionHash: null,
      feeAmount: 1.62,
      debitedAmount: q.json.data.totalDeduction,
      quoteId: q.json.data.quoteId,
    });
    const debit = new Big("250.123456").plus("1.62");
    expect(before.minus(await balance("USDT_TRC20")).toFixed()).toBe(debit.toFixed());
    const again = await quote({
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON_TO,
      amount: 250.123456,
      orderId: "wd-once",
    });
    expect([again.status, again.json.code]).toEqual([
      409,
      "exceptions.withdrawal.orderIdAlreadyExists",
    ]);
    const got = await api("GET", `/withdrawal?accountId=${ACCOUNT}&orderId=wd-once`);
    expect(got.json.data.id).toBe(w.id);
    const byId = await api("GET", `/withdrawal?accountId=${ACCOUNT}&id=${w.id}`);
    expect(byId.json.data).toEqual(got.json.data);
  });

  it("answers insufficientBalance at commit (a quote reserves nothing) and debits nothing", async () => {
    const q = await quote({
      cryptoCurrencyCode: "BTC",
      address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
      amount: 5,
      orderId: "wd-poor",
    });
    expect(q.status).toBe(201);
    const before = await balance("BTC");
    const c = await api("POST", "/withdrawal/commit", { quoteId: q.json.data.quoteId });
    expect([c.status, c.json.code]).toEqual([400, "exceptions.withdrawal.insufficientBalance"]);
    expect((await balance("BTC")).eq(before)).toBe(true);
    const unknown = await api("POST", "/withdrawal/commit", { quoteId: "nope" });
    expect([unknown.status, unknown.json.code]).toEqual([404, "exceptions.withdrawal.notFound"]);
  });

  it("validates address, decimals and minimum with their codes", async () => {
    const before = sb.sandbox.state.quotes.size;
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { cryptoCurrencyCode: "TRX", address: EVM_TO, amount: 50 },
        "exceptions.withdrawal.invalidAddress",
      ],
      [
        { cryptoCurrencyCode: "ETH", address: TRON_TO, amount: 1 },
        "exceptions.withdrawal.invalidAddress",
      ],
      [
        { cryptoCurrencyCode: "USDT_TRC20", address: TRON_TO, amount: 10.1234567 },
        "exceptions.withdrawal.amountInvalidDecimalPlaces",
      ],
      [
        { cryptoCurrencyCode: "USDT_TRC20", address: TRON_TO, amount: 9.99 },
        "exceptions.withdrawal.amountBelowMinimum",
      ],
      [{ cryptoCurrencyCode: "USDT_TRC20", address: TRON_TO }, "exceptions.validation.invalidBody"],
    ];
    for (const [body, code] of cases) {
      const r = await quote({ ...body, orderId: "wd-bad" });
      expect([r.status, r.json.code]).toEqual([400, code]);
    }
    expect(sb.sandbox.state.quotes.size).toBe(before);
  });

  it("answers the SDK's published codes: amountMustBePositive, tenantAccountNotFound, eitherWithdrawalIdOrOrderId…", async () => {
    const before = sb.sandbox.state.quotes.size;
    for (const amount of [-5, 0]) {
      const r = await quote({
        cryptoCurrencyCode: "TRX",
        address: TRON_TO,
        amount,
        orderId: "wd-neg",
      });
      expect([r.status, r.json.code]).toEqual([400, "exceptions.withdrawal.amountMustBePositive"]);
    }
    const foreign = await api("POST", "/withdrawal/quote", {
      accountId: "99999999-9999-4999-8999-999999999999",
      cryptoCurrencyCode: "TRX",
      address: TRON_TO,
      amount: 50,
      orderId: "wd-foreign",
    });
    expect([foreign.status, foreign.json.code]).toEqual([
      404,
      "exceptions.withdrawal.tenantAccountNotFound",
    ]);
    expect(sb.sandbox.state.quotes.size).toBe(before);
    const otherAccount = await api("GET", "/withdrawal?accountId=nobody&id=x");
    expect(otherAccount.json.code).toBe("exceptions.withdrawal.tenantAccountNotFound");
    const neither = await api("GET", `/withdrawal?accountId=${ACCOUNT}`);
    expect([neither.status, neither.json.code]).toEqual([
      400,
      "exceptions.withdrawal.eitherWithdrawalIdOrOrderIdMustBeProvided",
    ]);
  });

  it("auto-converts another stablecoin 1:1 without commission when the balance is short", async () => {
    await setBalance("USDC_ERC20", "0");
    await setBalance("USDT_ERC20", "2000");
    const q = await quote({
      cryptoCurrencyCode: "USDC_ERC20",
      address: EVM_TO,
      amount: 100,
      orderId: "wd-convert",
      allowAutoConvert: true,
    });
    const total = new Big(100).plus(new Big("0.0012").times(3200));
    expect(q.json.data.autoConvert).toEqual({
      fromAssetCode: "USDT_ERC20",
      toAssetCode: "USDC_ERC20",
      fromAmount: Number(total.toFixed()),
      toAmount: Number(total.toFixed()),
    });
    const c = await api("POST", "/withdrawal/commit", { quoteId: q.json.data.quoteId });
    expect(c.status).toBe(201);
    expect((await balance("USDT_ERC20")).toFixed()).toBe(new Big(2000).minus(total).toFixed());
    expect((await balance("USDC_ERC20")).toFixed()).toBe("0");
  });

  it("answers the SDK's Withdrawal: USD amounts, transfer and conversion ids, echoed customData and webhookUrl, source", async () => {
    await setBalance("USDT_TRC20", "5000");
    const q = await quote({
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON_TO,
      amount: 12.5,
      orderId: "wd-shape",
    });
    const c = await api("POST", "/withdrawal/commit", {
      quoteId: q.json.data.quoteId,
      customData: { ref: "r-1", n: 0.1 },
      webhookUrl: "https://shop.example/hook",
    });
    expect(c.status).toBe(201);
    const feeIn = q.json.data.fee.feeInCryptoCurrencyCode;
    expect(c.json.data).toMatchObject({
      amount: 12.5,
      amountUsd: 12.5,
      feeAmount: feeIn,
      feeAmountUsd: Number(new Big(feeIn).round(2, Big.roundHalfUp).toFixed()),
      quoteId: q.json.data.quoteId,
      transferId: q.json.data.quoteId,
      convertId: null,
      customData: { ref: "r-1", n: 0.1 },
      webhookUrl: "https://shop.example/hook",
      source: "api",
    });
    expect(c.text).toContain('"customData":{"ref":"r-1","n":0.1}');
    const got = await api("GET", `/withdrawal?accountId=${ACCOUNT}&orderId=wd-shape`);
    expect(got.json.data).toEqual(c.json.data);
    // Without customData or webhookUrl, neither is in the answer (absent, never null).
    const { c: b } = await trxCommitted(50, "wd-bare");
    expect(b.json.data).not.toHaveProperty("customData");
    expect(b.json.data).not.toHaveProperty("webhookUrl");
  });

  it("simulates completion with webhooks, and failure refunds the debit", async () => {
    const { c } = await trxCommitted(100, "wd-sim");
    const done = await adminSim("withdrawals", "wd-sim", { action: "completed" });
    expect(done.json.data.status).toBe("completed");
    expect(done.json.data.transactionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await hookStatuses(c.json.data.id)).toEqual([
      "withdrawal.statusChanged:processing",
      "withdrawal.statusChanged:completed",
    ]);
    const again = await adminSim("withdrawals", "wd-sim", { action: "fail" });
    expect(again.status).toBe(409);
    const q2 = await quote({
      cryptoCurrencyCode: "TRX",
      address: TRON_TO,
      amount: 100,
      orderId: "wd-fail",
    });
    const before = await balance("TRX");
    await api("POST", "/withdrawal/commit", { quoteId: q2.json.data.quoteId });
    expect(before.minus(await balance("TRX")).toFixed()).toBe("101.1");
    const failed = await adminSim("withdrawals", "wd-fail", { action: "fail" });
    expect(failed.json.data.status).toBe("failed");
    expect((await balance("TRX")).eq(before)).toBe(true);
  });
});
