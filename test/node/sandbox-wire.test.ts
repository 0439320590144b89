/**
 * The sandbox speaks the service's wire: API-key auth, `{data}` envelope, error bodies,
 * exact JSON numerals for amounts (never floats, never exponents), request ids, currencies.
 */
import { describe, expect, it } from "vitest";
import { useSandbox } from "./sandbox-kit.ts";

const API_KEY = "sk_wire_test_key";
const ACCOUNT = "11111111-1111-4111-8111-111111111111";

const { sb, api } = useSandbox(API_KEY, ACCOUNT);

describe("auth and envelope", () => {
  it("rejects a missing or wrong API key with 401 exceptions.auth.invalidApiKey", async () => {
    for (const headers of [{ "x-tenant-api-key": "wrong" }, { "x-tenant-api-key": "" }]) {
      const r = await api("GET", "/currencies", undefined, headers);
      expect(r.status).toBe(401);
      expect(r.json.code).toBe("exceptions.auth.invalidApiKey");
      expect(typeof r.json.message).toBe("string");
      expect(r.text).not.toContain(API_KEY);
    }
  });

  it("puts a distinct x-request-id on every response, errors included", async () => {
    const a = await api("GET", "/currencies");
    const b = await api("GET", "/currencies", undefined, { "x-tenant-api-key": "nope" });
    const c = await fetch(`${sb.url}/sandbox/health`);
    const ids = [a, b].map((r) => r.headers.get("x-request-id"));
    ids.push(c.headers.get("x-request-id"));
    expect(ids.every((id) => typeof id === "string" && id.length > 8)).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it("answers address provisioning 503 temporarilyDisabled, after the key check (SDK 1.5.0)", async () => {
    for (const method of ["POST", "GET"]) {
      const r = await api(method, "/address-provision", method === "POST" ? {} : undefined);
      expect([r.status, r.json.code]).toEqual([
        503,
        "exceptions.addressProvision.temporarilyDisabled",
      ]);
    }
    const noKey = await api("POST", "/address-provision", {}, { "x-tenant-api-key": "wrong" });
    expect(noKey.status).toBe(401);
  });

  it("answers unknown routes with 404 exceptions.route.notFound", async () => {
    const r = await api("GET", "/nope");
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ code: "exceptions.route.notFound", message: expect.any(String) });
  });

  it("answers malformed JSON with 400 exceptions.validation.invalidBody", async () => {
    const r = await api("POST", "/invoice", '{"accountId": ');
    expect(r.status).toBe(400);
    expect(r.json.code).toBe("exceptions.validation.invalidBody");
    const arr = await api("POST", "/invoice", "[1,2]");
    expect(arr.json.code).toBe("exceptions.validation.invalidBody");
  });

  it("answers a foreign accountId with 404 exceptions.account.notFound", async () => {
    const r = await api("POST", "/invoice", {
      accountId: "22222222-2222-4222-8222-222222222222",
      fiatCurrencyCode: "USD",
      amount: 10,
    });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe("exceptions.account.notFound");
  });

  it("lists the account on GET /accounts", async () => {
    const r = await api("GET", "/accounts");
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual([
      { id: ACCOUNT, name: expect.any(String), createdAt: expect.any(String) },
    ]);
    expect(Number.isNaN(Date.parse(r.json.data[0].createdAt))).toBe(false);
  });
});

describe("currencies", () => {
  it("lists the eleven currencies with amounts as exact JSON numbers", async () => {
    const r = await api("GET", "/currencies");
    expect(r.status).toBe(200);
    const codes = r.json.data.map((c: { code: string }) => c.code);
    expect(codes).toEqual([
      "BTC",
      "ETH",
      "USDT_ERC20",
      "USDC_ERC20",
      "BNB",
      "USDT_BEP20",
      "USDC_BEP20",
      "TRX",
      "USDT_TRC20",
      "ETH_BASE",
      "USDC_BASE",
    ]);
    expect(r.text).toContain('"minDepositAmount":0.0001,');
    expect(r.text).toContain('"depositCommission":0.005,');
    expect(r.text).toContain('"depositNetworkFee":{"amount":0.00001,"quotedAt":"');
    expect(r.text).not.toMatch(/:-?\d+(\.\d+)?[eE]/);
    const usdt = r.json.data.find((c: { code: string }) => c.code === "USDT_TRC20");
    expect(usdt).toMatchObject({
      network: "Tron",
      tokenType: "trc20",
      decimalPlaces: 6,
      depositCommission: 0.005,
      contractAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
    });
    // One effective commission per tenant (SDK MerchantCurrency.depositCommission).
    expect(
      new Set(r.json.data.map((c: { depositCommission: number }) => c.depositCommission)),
    ).toEqual(new Set([0.005]));
    for (const c of r.json.data) {
      // tokenType is absent on a native coin (the SDK omits it), present on a token.
      const token = c.contractAddress !== null;
      expect(Object.keys(c).sort()).toEqual(
        [
          "code",
          "name",
          "network",
          ...(token ? ["tokenType"] : []),
          "decimalPlaces",
          "minDepositAmount",
          "depositNetworkFee",
          "minWithdrawalAmount",
          "depositCommission",
          "contractAddress",
          "imageUrl",
          "addressMask",
        ].sort(),
      );
      expect(token).toBe(typeof c.tokenType === "string");
      // SDK 1.5.0: the minimum deposit is always above the current network fee.
      expect(c.minDepositAmount).toBeGreaterThan(c.depositNetworkFee.amount);
      expect(() => new RegExp(c.addressMask)).not.toThrow();
    }
  });

  it("filters by network, case-insensitively", async () => {
    const tron = await api("GET", "/currencies?network=tron");
    expect(tron.json.data.map((c: { code: string }) => c.code)).toEqual(["TRX", "USDT_TRC20"]);
    const eth = await api("GET", "/currencies?network=ETHEREUM");
    expect(eth.json.data).toHaveLength(3);
    const none = await api("GET", "/currencies?network=Solana");
    expect(none.json.data).toEqual([]);
  });

  it("address masks accept real address forms and reject others", async () => {
    const r = await api("GET", "/currencies");
    const mask = (code: string) =>
      new RegExp(r.json.data.find((c: { code: string }) => c.code === code).addressMask);
    expect(mask("BTC").test("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx")).toBe(true);
    expect(mask("BTC").test("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn")).toBe(true);
    expect(mask("BTC").test("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(false);
    expect(mask("ETH").test("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(true);
    expect(mask("TRX").test("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(true);
    expect(mask("TRX").test("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(false);
  });

  it("lists fiat currencies with precision and minimums", async () => {
    const r = await api("GET", "/currencies/fiat");
    expect(r.json.data.map((c: { code: string }) => c.code)).toEqual([
      "USD",
      "EUR",
      "GBP",
      "JPY",
      "CHF",
    ]);
    expect(r.text).toContain(
      '{"code":"JPY","name":"Japanese Yen","decimalPlaces":0,"minInvoiceAmount":150}',
    );
  });
});

describe("exact amounts", () => {
  it("accepts amounts as JSON numbers (with exponent), echoing them exactly", async () => {
    const asNumber = await api(
      "POST",
      "/invoice",
      `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"USD","amount":1234e-2}`,
    );
    expect(asNumber.status).toBe(201);
    expect(asNumber.text).toContain('"amount":12.34,');
    const big = await api(
      "POST",
      "/invoice",
      `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"USD","amount":99999999999999999.99}`,
    );
    expect(big.status).toBe(201);
    // A float would print 100000000000000000.
    expect(big.text).toContain('"amount":99999999999999999.99,');
  });

  it("rejects amounts sent as JSON strings: the service takes numbers (400, code assumed)", async () => {
    const before = (await api("GET", `/invoice/list?accountId=${ACCOUNT}&limit=1`)).json.total;
    const bodies = [
      { accountId: ACCOUNT, fiatCurrencyCode: "USD", amount: "12.50" },
      {
        accountId: ACCOUNT,
        fiatCurrencyCode: "USD",
        items: [{ name: "a", quantity: 1, cost: "5" }],
      },
      {
        accountId: ACCOUNT,
        fiatCurrencyCode: "USD",
        items: [{ name: "a", quantity: "1", cost: 5 }],
      },
    ];
    for (const body of bodies) {
      const r = await api("POST", "/invoice", body);
      expect([r.status, r.json.code]).toEqual([400, "exceptions.validation.invalidBody"]);
    }
    const quote = await api("POST", "/withdrawal/quote", {
      accountId: ACCOUNT,
      cryptoCurrencyCode: "USDT_TRC20",
      address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      amount: "20",
      orderId: "wire-string-amount",
    });
    expect([quote.status, quote.json.code]).toEqual([400, "exceptions.validation.invalidBody"]);
    expect((await api("GET", `/invoice/list?accountId=${ACCOUNT}&limit=1`)).json.total).toBe(
      before,
    );
  });

  it("rejects huge numerals at once instead of expanding them (400)", async () => {
    const numerals = ["1e999999999", "1e-999999999", "1e101", `1${"0".repeat(120)}`, "1.5e-101"];
    for (const numeral of numerals) {
      const r = await api(
        "POST",
        "/invoice",
        `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"USD","amount":${numeral}}`,
      );
      expect([numeral, r.status, r.json.code]).toEqual([
        numeral,
        400,
        "exceptions.validation.invalidBody",
      ]);
      expect(r.json.message).toBe("amount is out of range");
    }
    const cost = await api(
      "POST",
      "/invoice",
      `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"USD","items":[{"name":"a","quantity":1,"cost":1e999999999}]}`,
    );
    expect([cost.status, cost.json.code]).toEqual([400, "exceptions.validation.invalidBody"]);
    // Large but in range still works: 1e2 = 100.
    const ok = await api(
      "POST",
      "/invoice",
      `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"USD","amount":1e2}`,
    );
    expect(ok.status).toBe(201);
  });

  it("writes an 18-decimal amount exactly", async () => {
    const inv = await api("POST", "/invoice", {
      accountId: ACCOUNT,
      fiatCurrencyCode: "USD",
      amount: 10,
    });
    const locked = await api("POST", "/x-sandbox/invoice/lock-currency", {
      accountId: ACCOUNT,
      id: inv.json.data.id,
      cryptoCurrencyCode: "BNB",
    });
    expect(locked.status).toBe(200);
    expect(locked.text).toContain('"cryptoAmountExpected":0.017241379310344828,');
  });

  it("never writes exponent notation, even for 1e-8", async () => {
    const set = await fetch(`${sb.url}/sandbox/balances`, {
      method: "POST",
      body: '{"cryptoCurrencyCode":"BTC","amount":1e-8}',
    });
    expect(set.status).toBe(200);
    const text = await (await fetch(`${sb.url}/sandbox/balances`)).text();
    expect(text).toContain('{"cryptoCurrencyCode":"BTC","amount":0.00000001}');
  });

  it("rejects amounts that are not non-negative decimals", async () => {
    for (const amount of ["abc", "-5", "1e3", true, { v: 1 }]) {
      const r = await api("POST", "/invoice", {
        accountId: ACCOUNT,
        fiatCurrencyCode: "USD",
        amount,
      });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe("exceptions.validation.invalidBody");
    }
  });
});
