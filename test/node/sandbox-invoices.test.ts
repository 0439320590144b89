/**
 * Invoices: creation and validation, orderId idempotency (also under concurrency), lookup,
 * listing, cancellation, expiry, and the sandbox-only currency lock (amount rounded up).
 */
import { createHash } from "node:crypto";
import Big from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bech32Valid } from "../../demo/sandbox/addresses.ts";
import { CRYPTO_CURRENCIES } from "../../demo/sandbox/currencies.ts";
import { Dec } from "../../demo/sandbox/decimal.ts";
import { fiatToCrypto, usdPerCoin, usdPerFiat } from "../../demo/sandbox/rates.ts";
import type { WebhookRecord } from "../../demo/sandbox/state.ts";
import { useSandbox, webhooksFor } from "./sandbox-kit.ts";

Big.DP = 60;
const API_KEY = "sk_invoice_test";
const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const T0 = Date.parse("2030-01-01T00:00:00.000Z");
let clock = T0;

const { sb, api } = useSandbox(API_KEY, ACCOUNT, { now: () => new Date(clock) });

const invoiceCount = () => sb.sandbox.state.invoices.size;
const create = (body: Record<string, unknown>) =>
  api("POST", "/invoice", { accountId: ACCOUNT, fiatCurrencyCode: "USD", ...body });
const lock = (id: string, cryptoCurrencyCode: string) =>
  api("POST", "/x-sandbox/invoice/lock-currency", { accountId: ACCOUNT, id, cryptoCurrencyCode });

describe("POST /invoice", () => {
  it("creates an invoice with the documented fields", async () => {
    const r = await create({
      orderId: "inv-fields",
      amount: 25,
      description: "Order 1",
      number: "INV-1",
      customPayload: '{"cart":7}',
    });
    expect(r.status).toBe(201);
    const inv = r.json.data;
    // SDK Invoice: what the invoice does not have yet (crypto fields, settlement, paidAt) is
    // absent, not null; items is an array even for the amount form.
    expect(Object.keys(inv).sort()).toEqual(
      [
        "id",
        "accountId",
        "orderId",
        "amount",
        "fiatCurrencyCode",
        "items",
        "status",
        "expiresAt",
        "createdAt",
        "paymentPageUrl",
        "customPayload",
        "description",
        "number",
        "source",
      ].sort(),
    );
    expect(inv).toMatchObject({
      accountId: ACCOUNT,
      orderId: "inv-fields",
      amount: 25,
      items: [],
      status: "created",
      source: "api",
      customPayload: '{"cart":7}',
      createdAt: new Date(T0).toISOString(),
      expiresAt: new Date(T0 + 60 * 60_000).toISOString(),
      paymentPageUrl: `${sb.url}/pay/${inv.id}`,
    });
    const page = await fetch(inv.paymentPageUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("25 USD");
  });

  it("echoes the URLs and customerId given at creation (SDK 1.3.0 Invoice)", async () => {
    const urls = {
      webhookUrl: "https://shop.example/hook",
      returnUrl: "https://shop.example/back",
      successUrl: "https://shop.example/thanks",
      failedUrl: "https://shop.example/sorry",
    };
    const r = await create({ amount: 20, customerId: "cust-9", ...urls });
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({ customerId: "cust-9", ...urls });
    const got = await api("GET", `/invoice?accountId=${ACCOUNT}&id=${r.json.data.id}`);
    expect(got.json.data).toMatchObject({ customerId: "cust-9", ...urls });
  });

  it("sums items exactly", async () => {
    const r = await create({
      items: [
        { name: "Tea", quantity: 3, cost: 0.1 },
        { name: "Cup", quantity: 1, cost: 0.2 },
      ],
    });
    expect(r.status).toBe(400); // 0.5 is below the 1 USD minimum
    expect(r.json.code).toBe("exceptions.invoice.amountBelowMinimum");
    const ok = await create({
      items: [
        { name: "Tea", quantity: 3, cost: 10.1 },
        { name: "Cup", quantity: 1, cost: 0.2 },
      ],
    });
    expect(ok.status).toBe(201);
    expect(ok.text).toContain('"amount":30.5,');
    expect(ok.json.data.items).toEqual([
      { name: "Tea", quantity: 3, cost: 10.1 },
      { name: "Cup", quantity: 1, cost: 0.2 },
    ]);
    // SDK 1.4.0: a given amount is the total even when items are sent too.
    const both = await create({ amount: 12, items: [{ name: "Tea", quantity: 3, cost: 10.1 }] });
    expect([both.status, both.json.data.amount]).toEqual([201, 12]);
  });

  it("gives each bad input its own 400 code and creates nothing", async () => {
    const before = invoiceCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ fiatCurrencyCode: "XXX", amount: 10 }, "exceptions.invoice.fiatCurrencyNotFound"],
      [{ orderId: "nothing" }, "exceptions.invoice.amountOrItemsRequired"],
      [{ amount: 10.001 }, "exceptions.invoice.amountInvalidDecimalPlaces"],
      [
        { fiatCurrencyCode: "JPY", amount: 1500.5 },
        "exceptions.invoice.amountInvalidDecimalPlaces",
      ],
      [{ amount: 0.99 }, "exceptions.invoice.amountBelowMinimum"],
      [{ fiatCurrencyCode: "JPY", amount: 149 }, "exceptions.invoice.amountBelowMinimum"],
      [{ fiatCurrencyCode: undefined, amount: 10 }, "exceptions.validation.invalidBody"],
      [{ amount: 10, expiresInMinutes: 0 }, "exceptions.validation.invalidBody"],
      [{ amount: 10, webhookUrl: "not a url" }, "exceptions.validation.invalidBody"],
      [{ amount: -5 }, "exceptions.invoice.amountBelowMinimum"],
      [{ items: [{ name: "x", quantity: 1.5, cost: 9 }] }, "exceptions.validation.invalidBody"],
    ];
    for (const [body, code] of cases) {
      const r = await create(body);
      expect([r.status, r.json.code, JSON.stringify(body)]).toEqual([
        400,
        code,
        JSON.stringify(body),
      ]);
    }
    expect(invoiceCount()).toBe(before);
  });

  it("returns the original for a repeated orderId (200) and creates on a new orderId", async () => {
    const first = await create({ orderId: "shop-1001", amount: 42.5 });
    // The same number written differently (42.50) is the same amount.
    const again = await api(
      "POST",
      "/invoice",
      `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"USD","orderId":"shop-1001","amount":42.50}`,
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.json.data.id).toBe(first.json.data.id);
    const retry = await create({ orderId: "shop-1001-2", amount: 42.5 });
    expect(retry.status).toBe(201);
    expect(retry.json.data.id).not.toBe(first.json.data.id);
  });

  it("answers 409 exceptions.invoice.orderIdAlreadyExists when the orderId comes with other terms", async () => {
    await create({ orderId: "shop-2002", amount: 10 });
    const before = invoiceCount();
    const otherAmount = await create({ orderId: "shop-2002", amount: 11 });
    const otherFiat = await create({ orderId: "shop-2002", amount: 10, fiatCurrencyCode: "EUR" });
    for (const r of [otherAmount, otherFiat]) {
      expect(r.status).toBe(409);
      expect(r.json.code).toBe("exceptions.invoice.orderIdAlreadyExists");
    }
    expect(invoiceCount()).toBe(before);
  });

  it("collapses 20 concurrent identical creates into one invoice", async () => {
    const before = invoiceCount();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => create({ orderId: "race-1", amount: 15 })),
    );
    expect(new Set(results.map((r) => r.json.data.id)).size).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(19);
    expect(invoiceCount()).toBe(before + 1);
  });
});

describe("GET /invoice, /invoice/list, POST /invoice/cancel", () => {
  it("finds by id and by orderId, with distinct not-found codes", async () => {
    const { json } = await create({ orderId: "find-me", amount: 10 });
    const byId = await api("GET", `/invoice?accountId=${ACCOUNT}&id=${json.data.id}`);
    const byOrder = await api("GET", `/invoice?accountId=${ACCOUNT}&orderId=find-me`);
    expect(byId.json.data).toEqual(json.data);
    expect(byOrder.json.data).toEqual(json.data);
    const noId = await api("GET", `/invoice?accountId=${ACCOUNT}&id=nope`);
    expect([noId.status, noId.json.code]).toEqual([404, "exceptions.invoice.notFound"]);
    const noOrder = await api("GET", `/invoice?accountId=${ACCOUNT}&orderId=nope`);
    expect([noOrder.status, noOrder.json.code]).toEqual([
      404,
      "exceptions.invoice.notFoundByOrderId",
    ]);
    const noAccount = await api("GET", `/invoice?id=${json.data.id}`);
    expect(noAccount.status).toBe(400);
    const otherAccount = await api("GET", `/invoice?accountId=someone&id=${json.data.id}`);
    expect(otherAccount.json.code).toBe("exceptions.account.notFound");
  });

  it("lists with a status filter and pagination envelope", async () => {
    const all = await api("GET", `/invoice/list?accountId=${ACCOUNT}&limit=2&page=1`);
    expect(all.status).toBe(200);
    expect(all.json.data).toHaveLength(2);
    expect(all.json).toMatchObject({ page: 1, limit: 2, total: invoiceCount(), hasMore: true });
    const last = Math.ceil(invoiceCount() / 2);
    const lastPage = await api("GET", `/invoice/list?accountId=${ACCOUNT}&limit=2&page=${last}`);
    expect(lastPage.json.hasMore).toBe(false);
    const created = await api("GET", `/invoice/list?accountId=${ACCOUNT}&status=created&limit=100`);
    expect(created.json.data.every((i: { status: string }) => i.status === "created")).toBe(true);
    const bad = await api("GET", `/invoice/list?accountId=${ACCOUNT}&status=weird`);
    expect(bad.status).toBe(400);
  });

  it("cancels only while created, with a cancelled webhook", async () => {
    const { json } = await create({ orderId: "cancel-me", amount: 10 });
    const r = await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&orderId=cancel-me`);
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    const got = await api("GET", `/invoice?accountId=${ACCOUNT}&id=${json.data.id}`);
    expect(got.json.data.status).toBe("cancelled");
    const hooks = await webhooksFor(sb.url, json.data.id);
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({
      event: "invoice.statusChanged",
      data: { id: json.data.id, status: "cancelled", previousStatus: "created" },
    });
    const twice = await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${json.data.id}`);
    expect([twice.status, twice.json.code]).toEqual([409, "exceptions.invoice.cannotCancel"]);
    const missing = await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=nope`);
    expect(missing.status).toBe(404);
  });

  it("expires a created invoice past its deadline, with a webhook", async () => {
    const { json } = await create({ orderId: "expire-me", amount: 10, expiresInMinutes: 1 });
    clock += 61_000;
    const got = await api("GET", `/invoice?accountId=${ACCOUNT}&id=${json.data.id}`);
    expect(got.json.data.status).toBe("expired");
    const hooks = await webhooksFor(sb.url, json.data.id);
    expect(hooks.map((h) => h.status)).toEqual(["expired"]);
    const locked = await lock(json.data.id, "TRX");
    expect([locked.status, locked.json.code]).toEqual([409, "exceptions.invoice.expired"]);
  });
});

function base58Decode(s: string): Buffer {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = 0n;
  for (const ch of s) n = n * 58n + BigInt(alphabet.indexOf(ch));
  const hex = n.toString(16).padStart(50, "0");
  return Buffer.from(hex, "hex");
}

describe("POST /x-sandbox/invoice/lock-currency (sandbox extension)", () => {
  it("locks BNB with the amount rounded UP to 18 places and a fresh EVM address", async () => {
    const { json } = await create({ amount: 10 });
    const r = await lock(json.data.id, "BNB");
    const expected = new Big(10).div(580).round(18, Big.roundUp);
    expect(expected.toFixed()).toBe("0.017241379310344828");
    expect(r.text).toContain(`"cryptoAmountExpected":${expected.toFixed()},`);
    expect(r.json.data).toMatchObject({ cryptoCurrencyCode: "BNB", status: "created" });
    expect(r.json.data).not.toHaveProperty("txHash");
    expect(r.json.data.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(r.json.data.cryptoAmountReceived).toBe(0);
    expect(r.json.data.expiresAt).toBe(new Date(clock + 15 * 60_000).toISOString());
    expect(await webhooksFor(sb.url, json.data.id)).toEqual([]);
  });

  it("converts other fiats through the cross rate, never under-charging", async () => {
    const { json } = await create({ amount: 25.5, fiatCurrencyCode: "EUR" });
    const r = await lock(json.data.id, "BTC");
    const exact = new Big("25.5").times("1.08").div("65000");
    const expected = exact.round(8, Big.roundUp);
    expect(new Big(r.json.data.cryptoAmountExpected).toFixed()).toBe(expected.toFixed());
    expect(expected.gte(exact)).toBe(true);
    expect(expected.minus(exact).lt("0.00000001")).toBe(true);
    expect(r.json.data.address).toMatch(/^tb1q[02-9ac-hj-np-z]{38}$/);
    expect(bech32Valid("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toBe(true);
    expect(bech32Valid("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5")).toBe(false);
    expect(bech32Valid(r.json.data.address)).toBe(true);
  });

  it("gives Tron a base58check address with version byte 0x41", async () => {
    const { json } = await create({ amount: 10 });
    const r = await lock(json.data.id, "USDT_TRC20");
    const address: string = r.json.data.address;
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const raw = base58Decode(address);
    expect(raw).toHaveLength(25);
    expect(raw[0]).toBe(0x41);
    const sha = (b: Buffer) => createHash("sha256").update(b).digest();
    expect(sha(sha(raw.subarray(0, 21))).subarray(0, 4)).toEqual(raw.subarray(21));
    expect(r.json.data.cryptoAmountExpected).toBe(10);
  });

  it("re-locks to another currency while created; caps expiry at the invoice's own", async () => {
    const { json } = await create({ amount: 10, expiresInMinutes: 10 });
    const a = await lock(json.data.id, "TRX");
    expect(a.json.data.expiresAt).toBe(new Date(clock + 10 * 60_000).toISOString());
    expect(new Big(a.json.data.cryptoAmountExpected).toFixed()).toBe(
      new Big(10).div("0.12").round(6, Big.roundUp).toFixed(),
    );
    const b = await lock(json.data.id, "ETH");
    expect(b.json.data.cryptoCurrencyCode).toBe("ETH");
    expect(b.json.data.address).not.toBe(a.json.data.address);
    expect(b.text).toContain('"cryptoAmountExpected":0.003125,');
  });

  it("rejects unknown currencies and invoices no longer created", async () => {
    const { json } = await create({ amount: 10 });
    const unknown = await lock(json.data.id, "DOGE");
    expect([unknown.status, unknown.json.code]).toEqual([
      400,
      "exceptions.invoice.currencyNotFound",
    ]);
    await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${json.data.id}`);
    const cancelled = await lock(json.data.id, "TRX");
    expect([cancelled.status, cancelled.json.code]).toEqual([
      409,
      "exceptions.invoice.notInCreatedStatus",
    ]);
    const missing = await lock("nope", "TRX");
    expect(missing.json.code).toBe("exceptions.invoice.notFound");
  });

  it("expires a locked invoice when the lock window ends", async () => {
    const { json } = await create({ amount: 10 });
    await lock(json.data.id, "TRX");
    clock += 15 * 60_000 + 1;
    const got = await api("GET", `/invoice?accountId=${ACCOUNT}&id=${json.data.id}`);
    expect(got.json.data.status).toBe("expired");
  });
});

describe("rounding property", () => {
  it("the locked amount is the least multiple of 10^-dp that covers the fiat amount", () => {
    const coins = CRYPTO_CURRENCIES.map((c) => c);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 100n, max: 10n ** 12n }),
        fc.constantFrom("USD", "EUR", "GBP", "CHF"),
        fc.constantFrom(...coins),
        (cents, fiat, coin) => {
          const amount = new Big(cents.toString()).div(100);
          const got = new Big(
            fiatToCrypto(new Dec(amount.toFixed()), fiat, coin.code, coin.decimalPlaces).toFixed(),
          );
          const usd = amount.times(usdPerFiat(fiat).toFixed());
          const rate = new Big(usdPerCoin(coin.code).toFixed());
          const step = new Big(1).div(new Big(10).pow(coin.decimalPlaces));
          // Covers the amount, and one step less would not: exact ceiling.
          expect(got.times(rate).gte(usd)).toBe(true);
          expect(got.minus(step).times(rate).lt(usd)).toBe(true);
          expect(got.toFixed().split(".")[1]?.length ?? 0).toBeLessThanOrEqual(coin.decimalPlaces);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("expiry sweep", () => {
  it("expires an untouched invoice on its own and logs the webhook", async () => {
    const { json } = await create({ amount: 10, expiresInMinutes: 1 });
    clock += 61_000;
    // No GET: only the background sweep (every second) can expire it.
    const deadline = Date.now() + 3000;
    let hooks: WebhookRecord[] = [];
    while (Date.now() < deadline && hooks.length === 0) {
      await new Promise((r) => setTimeout(r, 100));
      hooks = await webhooksFor(sb.url, json.data.id);
    }
    expect(hooks.map((h) => h.status)).toEqual(["expired"]);
  });
});
