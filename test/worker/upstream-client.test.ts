/**
 * The upstream client against a tiny in-test fake of the service (an injected `fetch`):
 * wire format, normalisation, validation errors, retries, idempotent-create recovery and
 * redaction of the API key. Waits are recorded by an injected `sleep`; nothing is timed.
 */
import { describe, expect, it } from "vitest";
import { createUpstreamClient, type UpstreamClientOptions } from "../../worker/service/client.ts";
import { upstreamFailure } from "./helpers.ts";

const API_KEY = "sk_test_fake_key_0123456789";
const ACCOUNT = "00000000-0000-4000-8000-00000000abcd";
const BASE = "https://svc.test";

interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: string;
}

/** What the fake does for the next request on a route, instead of answering normally. */
type Fault =
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "timeout-after-create" }
  | { kind: "hang" }
  | { kind: "network"; message: string }
  | { kind: "malformed"; body: string };

interface FakeInvoice {
  id: string;
  orderId: string;
  amountRaw: string;
  fiat: string;
}

function fakeService(options: { conflictOnRepeat?: boolean } = {}) {
  const requests: Recorded[] = [];
  const faults = new Map<string, Fault[]>();
  const invoices = new Map<string, FakeInvoice>();
  const deposits = new Map<string, { id: string; code: string }>();
  let seq = 0;

  const invoiceJson = (inv: FakeInvoice) =>
    `{"id":"${inv.id}","accountId":"${ACCOUNT}","orderId":"${inv.orderId}","amount":${inv.amountRaw},` +
    `"fiatCurrencyCode":"${inv.fiat}","status":"created","cryptoAmountExpected":0.123456789012345678901,` +
    `"paymentPageUrl":"https://pay.test/${inv.id}","createdAt":"2026-01-01T00:00:00.000Z",` +
    `"expiresAt":"2026-01-01T01:00:00.000Z","settlement":null}`;
  const json = (status: number, body: string, headers: Record<string, string> = {}) =>
    new Response(body, {
      status,
      headers: { "content-type": "application/json", "x-request-id": `req-${seq}`, ...headers },
    });
  const hang = (signal: AbortSignal | null | undefined) =>
    new Promise<Response>((_, reject) => {
      signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });

  function createInvoice(body: string): { inv: FakeInvoice; repeat: boolean } {
    const parsed = JSON.parse(body) as { orderId: string; fiatCurrencyCode: string };
    const amountRaw = /"amount":([^,}]+)/.exec(body)?.[1] ?? "null";
    const existing = invoices.get(parsed.orderId);
    if (existing) return { inv: existing, repeat: true };
    const inv = {
      id: `inv_${++seq}`,
      orderId: parsed.orderId,
      amountRaw,
      fiat: parsed.fiatCurrencyCode,
    };
    invoices.set(parsed.orderId, inv);
    return { inv, repeat: false };
  }

  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? init.body : "";
    const headers = new Headers(init?.headers);
    requests.push({ method, path: url.pathname, query: url.searchParams, headers, body });
    seq++;
    if (headers.get("x-tenant-api-key") !== API_KEY) {
      const echoed = headers.get("x-tenant-api-key");
      return json(
        401,
        `{"code":"exceptions.auth.invalidApiKey","message":"API key ${echoed} is not valid"}`,
      );
    }
    const route = `${method} ${url.pathname}`;
    const fault = faults.get(route)?.shift();
    if (fault?.kind === "status") return json(fault.status, fault.body ?? "{}", fault.headers);
    if (fault?.kind === "malformed") return json(200, fault.body);
    if (fault?.kind === "network") throw new TypeError(fault.message);
    if (fault?.kind === "hang") return hang(init?.signal);
    if (fault?.kind === "timeout-after-create") {
      if (route === "POST /invoice") createInvoice(body);
      return hang(init?.signal);
    }

    switch (route) {
      case "POST /invoice": {
        const { inv, repeat } = createInvoice(body);
        if (repeat && options.conflictOnRepeat) {
          return json(409, '{"code":"exceptions.invoice.orderIdAlreadyExists","message":"exists"}');
        }
        return json(repeat ? 200 : 201, `{"data":${invoiceJson(inv)}}`);
      }
      case "GET /invoice": {
        const orderId = url.searchParams.get("orderId");
        const id = url.searchParams.get("id");
        const inv = [...invoices.values()].find((i) => i.orderId === orderId || i.id === id);
        if (!inv) return json(404, '{"code":"exceptions.invoice.notFound","message":"no"}');
        return json(200, `{"data":${invoiceJson(inv)}}`);
      }
      case "GET /invoice/list":
        return json(
          200,
          `{"data":[${[...invoices.values()].map(invoiceJson).join(",")}],"total":${invoices.size},"page":1,"limit":20,"hasMore":false}`,
        );
      case "POST /invoice/cancel":
        return new Response(null, { status: 204 });
      case "GET /currencies":
        return json(
          200,
          '{"data":[{"code":"USDT_BEP20","name":"Tether","network":"BNB","tokenType":"bep20","decimalPlaces":18,' +
            '"minDepositAmount":1e-7,"minWithdrawalAmount":10.50,"depositCommission":0.005,' +
            '"contractAddress":"0x55d398326f99059fF775485246999027B3197955","imageUrl":null,' +
            '"depositNetworkFee":{"amount":0.000000000000000001,"quotedAt":"2026-01-01T00:00:00Z"}},' +
            '{"code":"BTC","name":"Bitcoin","network":"BTC","decimalPlaces":8,"minDepositAmount":0.0001,' +
            '"minWithdrawalAmount":0.0005,"depositCommission":0.01,"contractAddress":null,"depositNetworkFee":null}]}',
        );
      case "GET /currencies/fiat":
        return json(
          200,
          '{"data":[{"code":"USD","name":"US Dollar","decimalPlaces":2,"minInvoiceAmount":1}]}',
        );
      case "POST /deposit": {
        const { orderId, cryptoCurrencyCode } = JSON.parse(body) as Record<string, string>;
        const existing = deposits.get(orderId!);
        if (existing && options.conflictOnRepeat) {
          return json(409, '{"code":"exceptions.deposit.orderIdAlreadyExists","message":"exists"}');
        }
        const dep = existing ?? { id: `dep_${seq}`, code: cryptoCurrencyCode! };
        deposits.set(orderId!, dep);
        return json(
          201,
          `{"data":{"id":"${dep.id}","minimumAmount":0.00001,"address":"TAddr","createdAt":"2026-01-01T00:00:00Z","expiresAt":null,"qrCode":"data:image/png;base64,AA=="}}`,
        );
      }
      case "GET /deposit": {
        const [id, orderId] = [url.searchParams.get("id"), url.searchParams.get("orderId")];
        const found = [...deposits.entries()].find(([o, d]) => d.id === id || o === orderId);
        if (!found) return json(404, '{"code":"exceptions.deposit.notFound","message":"no"}');
        const [o, d] = found;
        return json(
          200,
          `{"data":{"id":"${d.id}","orderId":"${o}","cryptoCurrencyCode":"${d.code}","status":"created","minimumAmount":0.00001,"address":"TAddr","createdAt":"2026-01-01T00:00:00Z","expiresAt":null,"qrCode":null,"settlement":null}}`,
        );
      }
      case "POST /withdrawal/quote":
        return json(
          201,
          '{"data":{"quoteId":"q_1","orderId":"po-1","cryptoCurrencyCode":"USDT_BEP20","address":"0xabc","amount":0.123456789012345678,' +
            '"autoConvert":null,"totalDeduction":0.124456789012345678,"fee":{"feeNative":0.0001,"feeCurrency":"BNB",' +
            '"feeInCryptoCurrencyCode":0.001,"feeUsd":0.06},"expiresAt":"2026-01-01T00:01:00Z"}}',
        );
      case "POST /withdrawal/commit":
      case "GET /withdrawal":
        return json(
          200,
          '{"data":{"id":"wd_1","orderId":"po-1","accountId":"a","cryptoCurrencyCode":"USDT_BEP20","address":"0xabc",' +
            '"amount":0.123456789012345678,"status":"processing","transactionHash":null,"feeAmount":0.001,' +
            '"debitedAmount":0.124456789012345678,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z","quoteId":"q_1"}}',
        );
      case "GET /accounts":
        return json(
          200,
          `{"data":[{"id":"${ACCOUNT}","name":"Main","createdAt":"2026-01-01T00:00:00Z"}]}`,
        );
      default:
        return json(404, '{"code":"exceptions.route.notFound","message":"no route"}');
    }
  };

  return {
    fetch: fetchFn as typeof fetch,
    requests,
    invoices,
    fault(route: string, ...list: Fault[]) {
      faults.set(route, [...(faults.get(route) ?? []), ...list]);
    },
    count: (route: string) => requests.filter((r) => `${r.method} ${r.path}` === route).length,
  };
}

function setup(extra: Partial<UpstreamClientOptions> & { conflictOnRepeat?: boolean } = {}) {
  const fake = fakeService({ conflictOnRepeat: extra.conflictOnRepeat ?? false });
  const sleeps: number[] = [];
  const logs: Record<string, unknown>[] = [];
  const client = createUpstreamClient({
    baseUrl: BASE,
    apiKey: API_KEY,
    accountId: ACCOUNT,
    fetch: fake.fetch,
    timeoutMs: 50,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    log: (line) => logs.push(line),
    ...extra,
  });
  return { fake, client, sleeps, logs };
}

const invoiceInput = (orderId: string) => ({ orderId, fiatCurrencyCode: "USD", amount: "49.90" });

describe("wire format", () => {
  it("sends the raw key header, accountId in the body and the amount as an exact numeral", async () => {
    const { fake, client } = setup();
    const invoice = await client.createInvoice({
      ...invoiceInput("cc-1"),
      description: "Order 1",
      expiresInMinutes: 30,
    });
    const [req] = fake.requests;
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/invoice");
    expect(req?.headers.get("x-tenant-api-key")).toBe(API_KEY);
    expect(req?.headers.get("content-type")).toBe("application/json");
    expect(req?.body).toBe(
      `{"accountId":"${ACCOUNT}","fiatCurrencyCode":"USD","orderId":"cc-1","amount":49.9,"description":"Order 1","expiresInMinutes":30}`,
    );
    expect(invoice.amount).toBe("49.9");
  });

  it("puts accountId and the reference in the query of one-object reads", async () => {
    const { fake, client } = setup();
    const created = await client.createInvoice(invoiceInput("cc-2"));
    await client.getInvoice({ orderId: "cc-2" });
    await client.getInvoice({ id: created.id });
    const [, byOrder, byId] = fake.requests;
    expect(Object.fromEntries(byOrder!.query)).toEqual({ accountId: ACCOUNT, orderId: "cc-2" });
    expect(Object.fromEntries(byId!.query)).toEqual({ accountId: ACCOUNT, id: created.id });
  });

  it("sends an 18-decimal withdrawal amount exactly, and commit without accountId", async () => {
    const { fake, client } = setup();
    await client.quoteWithdrawal({
      orderId: "po-1",
      cryptoCurrencyCode: "USDT_BEP20",
      address: "0xabc",
      amount: "0.123456789012345678",
    });
    await client.commitWithdrawal({ quoteId: "q_1" });
    expect(fake.requests[0]?.body).toContain('"amount":0.123456789012345678,');
    expect(fake.requests[1]?.body).toBe('{"quoteId":"q_1"}');
  });

  it("rejects bad inputs before sending anything", async () => {
    const { fake, client } = setup();
    await expect(client.createInvoice({ ...invoiceInput("cc-x"), amount: "1e3" })).rejects.toThrow(
      TypeError,
    );
    await expect(client.createInvoice({ ...invoiceInput(""), amount: "1" })).rejects.toThrow(
      TypeError,
    );
    await expect(client.getInvoice({} as { id: string })).rejects.toThrow(TypeError);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("normalised answers", () => {
  it("invoices: exact decimal strings and nulls for omitted fields", async () => {
    const { client } = setup();
    const invoice = await client.createInvoice(invoiceInput("cc-3"));
    expect(invoice).toMatchObject({
      orderId: "cc-3",
      amount: "49.9",
      status: "created",
      cryptoAmountExpected: "0.123456789012345678901",
      cryptoAmountReceived: null,
      address: null,
      txHash: null,
      items: null,
      customPayload: null,
      paymentPageUrl: `https://pay.test/${invoice.id}`,
    });
  });

  it("currencies: contract shape plus the upstream-only network fee", async () => {
    const { client, fake } = setup();
    const [usdt, btc] = await client.listCurrencies("BNB");
    expect(fake.requests[0]?.query.get("network")).toBe("BNB");
    expect(usdt).toEqual({
      code: "USDT_BEP20",
      name: "Tether",
      network: "BNB",
      // The worker's one display name for the network travels with each entry.
      networkName: "BNB Smart Chain",
      tokenType: "bep20",
      decimalPlaces: 18,
      minDepositAmount: "0.0000001",
      minWithdrawalAmount: "10.5",
      depositCommission: "0.005",
      contractAddress: "0x55d398326f99059fF775485246999027B3197955",
      imageUrl: null,
      addressMask: null,
      depositNetworkFee: { amount: "0.000000000000000001", quotedAt: "2026-01-01T00:00:00Z" },
    });
    expect(btc?.tokenType).toBeNull();
    expect(btc?.depositNetworkFee).toBeNull();
    expect(await client.listFiatCurrencies()).toEqual([
      { code: "USD", name: "US Dollar", decimalPlaces: 2, minInvoiceAmount: "1" },
    ]);
  });

  it("lists, deposits, quotes, withdrawals and accounts", async () => {
    const { client } = setup();
    await client.createInvoice(invoiceInput("cc-4"));
    const page = await client.listInvoices({ status: "created", page: 1, limit: 20 });
    expect(page).toMatchObject({ total: 1, page: 1, limit: 20, hasMore: false });
    expect(page.items[0]?.orderId).toBe("cc-4");

    const deposit = await client.createDeposit({
      orderId: "top-1",
      cryptoCurrencyCode: "USDT_TRC20",
    });
    expect(deposit).toMatchObject({
      orderId: "top-1",
      cryptoCurrencyCode: "USDT_TRC20",
      minimumAmount: "0.00001",
      status: null,
      settlement: null,
      expiresAt: null,
    });

    const quote = await client.quoteWithdrawal({
      orderId: "po-1",
      cryptoCurrencyCode: "USDT_BEP20",
      address: "0xabc",
      amount: "0.123456789012345678",
    });
    expect(quote.totalDeduction).toBe("0.124456789012345678");
    expect(quote.fee).toEqual({
      feeNative: "0.0001",
      feeCurrency: "BNB",
      feeInCryptoCurrencyCode: "0.001",
      feeUsd: "0.06",
    });
    const withdrawal = await client.getWithdrawal({ orderId: "po-1" });
    expect(withdrawal.debitedAmount).toBe("0.124456789012345678");
    expect(await client.listAccounts()).toEqual([
      { id: ACCOUNT, name: "Main", createdAt: "2026-01-01T00:00:00Z" },
    ]);
    await expect(client.cancelInvoice({ orderId: "cc-4" })).resolves.toBeUndefined();
  });
});

describe("invalid answers", () => {
  it("names the failing field path and is not retried", async () => {
    const { fake, client } = setup();
    fake.fault("GET /invoice", {
      kind: "malformed",
      body: '{"data":{"id":"i","amount":"lots","fiatCurrencyCode":"USD","status":"created","createdAt":"x","paymentPageUrl":"u","settlement":{"amountPaid":1}}}',
    });
    const error = await upstreamFailure(client.getInvoice({ id: "i" }));
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toContain("data.amount");
    expect(error.message).toContain("data.settlement.commissionAmount");
    expect(error.requestId).toMatch(/^req-/);
    expect(fake.count("GET /invoice")).toBe(1);
  });

  it("names array indices, unknown statuses and a missing envelope", async () => {
    const { fake, client } = setup();
    fake.fault("GET /currencies/fiat", {
      kind: "malformed",
      body: '{"data":[{"code":"USD","name":"x","decimalPlaces":2,"minInvoiceAmount":1},{"code":"EUR","name":"y","decimalPlaces":2.5,"minInvoiceAmount":1}]}',
    });
    expect((await upstreamFailure(client.listFiatCurrencies())).message).toContain(
      "data[1].decimalPlaces",
    );
    fake.fault("GET /accounts", { kind: "malformed", body: '[{"id":"a"}]' });
    expect((await upstreamFailure(client.listAccounts())).message).toContain("(root): ");
    fake.fault("GET /withdrawal", {
      kind: "malformed",
      body: '{"data":{"id":"w","cryptoCurrencyCode":"BTC","address":"a","amount":1,"status":"teleported","createdAt":"x"}}',
    });
    expect((await upstreamFailure(client.getWithdrawal({ id: "w" }))).message).toContain(
      "data.status",
    );
  });

  it("amounts and counts must be JSON numbers, text must be JSON strings", async () => {
    const { fake, client } = setup();
    fake.fault("GET /currencies/fiat", {
      kind: "malformed",
      body: '{"data":[{"code":"USD","name":"x","decimalPlaces":"2","minInvoiceAmount":"1.5"}]}',
    });
    const strings = await upstreamFailure(client.listFiatCurrencies());
    expect(strings.kind).toBe("invalid_response");
    expect(strings.message).toContain("data[0].decimalPlaces: expected an integer");
    expect(strings.message).toContain("data[0].minInvoiceAmount: expected a number");
    fake.fault("GET /accounts", {
      kind: "malformed",
      body: '{"data":[{"id":12345,"name":null,"createdAt":null}]}',
    });
    expect((await upstreamFailure(client.listAccounts())).message).toContain("data[0].id");
    // The same answer with numbers where numbers belong parses, and amounts come out as
    // canonical decimal strings.
    fake.fault("GET /currencies/fiat", {
      kind: "malformed",
      body: '{"data":[{"code":"USD","name":"x","decimalPlaces":2,"minInvoiceAmount":1.50}]}',
    });
    expect(await client.listFiatCurrencies()).toEqual([
      { code: "USD", name: "x", decimalPlaces: 2, minInvoiceAmount: "1.5" },
    ]);
  });

  it("a body that is not JSON is invalid_response", async () => {
    const { fake, client } = setup();
    fake.fault("GET /accounts", { kind: "malformed", body: "<html>oops</html>" });
    const error = await upstreamFailure(client.listAccounts());
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toContain("not JSON");
  });
});

describe("errors and retries", () => {
  it("4xx: the service's code and request id, never retried", async () => {
    const { fake, client, sleeps } = setup();
    fake.fault("POST /invoice", {
      kind: "status",
      status: 400,
      body: '{"code":"exceptions.invoice.amountBelowMinimum","message":"too small"}',
    });
    const error = await upstreamFailure(client.createInvoice(invoiceInput("cc-5")));
    expect(error).toMatchObject({
      kind: "http",
      status: 400,
      code: "exceptions.invoice.amountBelowMinimum",
    });
    expect(error.requestId).toMatch(/^req-/);
    expect(error.message).toContain("too small");
    expect(fake.count("POST /invoice")).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("request id falls back to x-correlation-id", async () => {
    const { fake, client } = setup();
    fake.fault("GET /accounts", {
      kind: "status",
      status: 403,
      body: "{}",
      headers: { "x-request-id": "", "x-correlation-id": "corr-7" },
    });
    expect((await upstreamFailure(client.listAccounts())).requestId).toBe("corr-7");
  });

  it("5xx then success: retried with the identical body, one invoice", async () => {
    const { fake, client, sleeps } = setup();
    fake.fault("POST /invoice", { kind: "status", status: 502 }, { kind: "status", status: 503 });
    const invoice = await client.createInvoice(invoiceInput("cc-6"));
    const bodies = fake.requests.map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(1);
    expect(fake.invoices.size).toBe(1);
    expect(invoice.orderId).toBe("cc-6");
    expect(sleeps).toEqual([200, 400]);
  });

  it("gives up after maxAttempts with the last error", async () => {
    const { fake, client } = setup({ maxAttempts: 2 });
    fake.fault("GET /accounts", ...Array(5).fill({ kind: "status", status: 500 }));
    const error = await upstreamFailure(client.listAccounts());
    expect(error.status).toBe(500);
    expect(fake.count("GET /accounts")).toBe(2);
  });

  it("timeout after create, then retry: the same invoice, created once", async () => {
    const { fake, client, logs } = setup();
    fake.fault("POST /invoice", { kind: "timeout-after-create" });
    const invoice = await client.createInvoice(invoiceInput("cc-7"));
    expect(fake.count("POST /invoice")).toBe(2);
    expect(fake.invoices.size).toBe(1);
    expect(invoice.id).toBe(fake.invoices.get("cc-7")?.id);
    expect(logs[0]).toMatchObject({ outcome: "retry", kind: "timeout" });
  });

  it("timeouts exhaust into kind timeout", async () => {
    const { fake, client } = setup();
    fake.fault("GET /accounts", { kind: "hang" }, { kind: "hang" }, { kind: "hang" });
    const error = await upstreamFailure(client.listAccounts());
    expect(error.kind).toBe("timeout");
    expect(fake.count("GET /accounts")).toBe(3);
  });

  it("network errors are retried for reads", async () => {
    const { fake, client } = setup();
    fake.fault("GET /accounts", { kind: "network", message: "connection reset" });
    await expect(client.listAccounts()).resolves.toHaveLength(1);
    expect(fake.count("GET /accounts")).toBe(2);
  });

  const limited = (ms?: string) => ({
    kind: "status" as const,
    status: 429,
    body: `{"code":"exceptions.rateLimit.exceeded","message":"slow down"${ms === undefined ? "" : `,"extension":{"msBeforeNext":${ms}}`}}`,
  });

  it("429 waits the whole msBeforeNext (rounded up to a millisecond), else backs off", async () => {
    const { fake, client, sleeps } = setup();
    fake.fault("GET /currencies", limited("1500"), limited("2e3"));
    await client.listCurrencies();
    expect(sleeps).toEqual([1500, 2000]);
    fake.fault("GET /currencies/fiat", limited("1500.0001"), limited());
    await client.listFiatCurrencies();
    expect(sleeps).toEqual([1500, 2000, 1501, 400]);
    fake.fault("GET /accounts", limited("0.25"));
    await client.listAccounts();
    expect(sleeps.at(-1)).toBe(1);
  });

  it("429 with a hint beyond 10 s is not retried early: thrown with retryAfterMs", async () => {
    const { fake, client, sleeps, logs } = setup();
    fake.fault("GET /currencies", limited("60000"));
    const error = await upstreamFailure(client.listCurrencies());
    expect(error).toMatchObject({ status: 429, retryAfterMs: 60_000 });
    expect(fake.count("GET /currencies")).toBe(1);
    expect(sleeps).toEqual([]);
    expect(logs.at(-1)).toMatchObject({ outcome: "fail", retryAfterMs: 60_000 });
    // A hint too large to be an exact JS integer is still read as "too long", never as a float.
    fake.fault("GET /accounts", limited("123456789012345678901.5"));
    const huge = await upstreamFailure(client.listAccounts());
    expect(huge.retryAfterMs).toBe(Number.MAX_SAFE_INTEGER);
    expect(fake.count("GET /accounts")).toBe(1);
  });

  it("429 with a hint beyond the call's remaining budget is not retried", async () => {
    const { fake, client, sleeps } = setup({ deadlineMs: 1000 });
    fake.fault("GET /accounts", limited("5000"));
    expect(await upstreamFailure(client.listAccounts())).toMatchObject({ retryAfterMs: 5000 });
    expect(fake.count("GET /accounts")).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("Retry-After seconds count when the body has no hint", async () => {
    const { fake, client, sleeps } = setup();
    fake.fault("GET /accounts", { ...limited(), headers: { "retry-after": "2" } });
    await client.listAccounts();
    expect(sleeps).toEqual([2000]);
    fake.fault("GET /accounts", { ...limited(), headers: { "retry-after": "30" } });
    expect(await upstreamFailure(client.listAccounts())).toMatchObject({ retryAfterMs: 30_000 });
  });

  it("the deadline bounds the whole call, per-attempt timeouts included", async () => {
    const { fake, client } = setup({ timeoutMs: 5000, deadlineMs: 300 });
    fake.fault("GET /accounts", { kind: "hang" }, { kind: "hang" }, { kind: "hang" });
    const started = Date.now();
    const error = await upstreamFailure(client.listAccounts());
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    // No budget left for a second attempt.
    expect(fake.count("GET /accounts")).toBe(1);
  });

  it("one short attempt: maxAttempts 1 with a short deadline", async () => {
    const { fake, client } = setup({ timeoutMs: 5000, maxAttempts: 1, deadlineMs: 200 });
    fake.fault("GET /invoice", { kind: "status", status: 503 });
    expect((await upstreamFailure(client.getInvoice({ id: "inv_x" }))).status).toBe(503);
    expect(fake.count("GET /invoice")).toBe(1);
  });

  it("the 429 error carries retryAfterMs when attempts run out", async () => {
    const { fake, client } = setup({ maxAttempts: 1 });
    fake.fault("GET /accounts", {
      kind: "status",
      status: 429,
      body: '{"code":"exceptions.rateLimit.exceeded","message":"x","extension":{"msBeforeNext":750}}',
    });
    expect(await upstreamFailure(client.listAccounts())).toMatchObject({
      status: 429,
      retryAfterMs: 750,
    });
  });

  it("commit: retried on 5xx and timeout, not on 429", async () => {
    const { fake, client } = setup();
    fake.fault("POST /withdrawal/commit", { kind: "status", status: 500 }, { kind: "hang" });
    await expect(client.commitWithdrawal({ quoteId: "q_1" })).resolves.toMatchObject({
      id: "wd_1",
    });
    expect(fake.count("POST /withdrawal/commit")).toBe(3);
    fake.fault("POST /withdrawal/commit", {
      kind: "status",
      status: 429,
      body: '{"code":"exceptions.rateLimit.exceeded","message":"x","extension":{"msBeforeNext":10}}',
    });
    expect((await upstreamFailure(client.commitWithdrawal({ quoteId: "q_1" }))).status).toBe(429);
    expect(fake.count("POST /withdrawal/commit")).toBe(4);
  });

  it("cancel is never retried", async () => {
    const { fake, client } = setup();
    fake.fault("POST /invoice/cancel", { kind: "status", status: 503 });
    expect((await upstreamFailure(client.cancelInvoice({ id: "inv_1" }))).status).toBe(503);
    expect(fake.count("POST /invoice/cancel")).toBe(1);
  });
});

describe("orderId conflict after an uncertain attempt", () => {
  it("returns the invoice the timed-out attempt created when it matches", async () => {
    const { fake, client } = setup({ conflictOnRepeat: true });
    fake.fault("POST /invoice", { kind: "timeout-after-create" });
    const invoice = await client.createInvoice(invoiceInput("cc-8"));
    expect(invoice.orderId).toBe("cc-8");
    expect(fake.count("POST /invoice")).toBe(2);
    expect(fake.count("GET /invoice")).toBe(1);
    expect(fake.invoices.size).toBe(1);
  });

  it("throws the conflict when the existing invoice differs", async () => {
    const { fake, client } = setup({ conflictOnRepeat: true });
    await client.createInvoice({ ...invoiceInput("cc-9"), amount: "10" });
    fake.fault("POST /invoice", { kind: "status", status: 504 });
    const error = await upstreamFailure(client.createInvoice(invoiceInput("cc-9")));
    expect(error.code).toBe("exceptions.invoice.orderIdAlreadyExists");
    expect(fake.count("GET /invoice")).toBe(1);
  });

  it("throws the conflict at once when no attempt was uncertain", async () => {
    const { fake, client } = setup({ conflictOnRepeat: true });
    await client.createInvoice(invoiceInput("cc-10"));
    const error = await upstreamFailure(client.createInvoice(invoiceInput("cc-10")));
    expect(error.status).toBe(409);
    expect(fake.count("GET /invoice")).toBe(0);
  });

  it("never labels a repeated deposit with the requested currency: reads it back and refuses another", async () => {
    const { fake, client } = setup();
    const first = await client.createDeposit({ orderId: "top-3", cryptoCurrencyCode: "BTC" });
    expect(first.cryptoCurrencyCode).toBe("BTC");
    expect(fake.count("GET /deposit")).toBeGreaterThan(0);
    // The service answers a repeated orderId with the ORIGINAL (BTC) deposit.
    const error = await upstreamFailure(
      client.createDeposit({ orderId: "top-3", cryptoCurrencyCode: "ETH" }),
    );
    expect([error.status, error.code]).toEqual([409, "exceptions.deposit.orderIdAlreadyExists"]);
  });

  it("deposits recover the same way, matched on the crypto currency", async () => {
    const { fake, client } = setup({ conflictOnRepeat: true });
    await client.createDeposit({ orderId: "top-2", cryptoCurrencyCode: "BTC" });
    fake.fault("POST /deposit", { kind: "network", message: "reset" });
    fake.fault("GET /deposit", {
      kind: "malformed",
      body: '{"data":{"id":"dep_x","orderId":"top-2","cryptoCurrencyCode":"BTC","status":"created","address":"a","createdAt":"x"}}',
    });
    const deposit = await client.createDeposit({ orderId: "top-2", cryptoCurrencyCode: "BTC" });
    expect(deposit).toMatchObject({ id: "dep_x", status: "created" });
    fake.fault("POST /deposit", { kind: "network", message: "reset" });
    fake.fault("GET /deposit", {
      kind: "malformed",
      body: '{"data":{"id":"dep_x","orderId":"top-2","cryptoCurrencyCode":"BTC","status":"created","address":"a","createdAt":"x"}}',
    });
    const error = await upstreamFailure(
      client.createDeposit({ orderId: "top-2", cryptoCurrencyCode: "ETH" }),
    );
    expect(error.status).toBe(409);
  });
});

describe("the API key never leaks", () => {
  it("not in the message of a 401 that echoes it, nor in code or request id", async () => {
    const wrongKey = "sk_wrong_key_abcdef";
    const { client } = setup({ apiKey: wrongKey });
    const error = await upstreamFailure(client.listAccounts());
    expect(error).toMatchObject({
      kind: "http",
      status: 401,
      code: "exceptions.auth.invalidApiKey",
    });
    const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack });
    expect(everything).not.toContain(wrongKey);
    expect(error.message).toContain("[redacted]");
  });

  it("not in network or validation errors, nor in log lines", async () => {
    const { fake, client, logs } = setup({ maxAttempts: 1 });
    fake.fault("GET /accounts", { kind: "network", message: `cannot send header ${API_KEY}` });
    const network = await upstreamFailure(client.listAccounts());
    expect(network.kind).toBe("network");
    expect(network.message).not.toContain(API_KEY);
    fake.fault("GET /accounts", {
      kind: "status",
      status: 500,
      body: `{"code":"exceptions.${API_KEY}","message":"${encodeURIComponent(API_KEY)}"}`,
    });
    const server = await upstreamFailure(client.listAccounts());
    expect(`${server.message} ${server.code}`).not.toContain(API_KEY);
    expect(server.message).not.toContain(encodeURIComponent(API_KEY));
    expect(JSON.stringify(logs)).not.toContain(API_KEY);
    expect(JSON.stringify(client)).not.toContain(API_KEY);
  });
});
