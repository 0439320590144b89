/**
 * The upstream client against the real sandbox (started by global-setup.ts): every endpoint's
 * answer passes the schemas, idempotent creates, the service's error codes, auth failure, and
 * fault injection through the sandbox admin API. Waits go through an injected `sleep` that
 * records them; retries are counted in the sandbox's own request log. Files run one at a time
 * (fileParallelism: false), so faults and counts here are not disturbed by other files.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { walletUri } from "../../worker/lib/wallet/wallet-uri.ts";
import { createUpstreamClient, type UpstreamClientOptions } from "../../worker/service/client.ts";
import { lockInvoiceCurrency } from "../../worker/service/currency-lock.ts";
import { clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import { upstreamFailure } from "./helpers.ts";

const SANDBOX = env.UPSTREAM_BASE_URL as string;
const API_KEY = env.API_KEY as string;
const ACCOUNT_ID = env.ACCOUNT_ID as string;

let seq = 0;
/** A fresh orderId per call: other files share this sandbox. */
function orderId(label: string): string {
  seq += 1;
  return `up-${label}-${Date.now().toString(36)}-${seq}-${Math.random().toString(36).slice(2, 8)}`;
}

function sandboxClient(extra: Partial<UpstreamClientOptions> = {}) {
  const sleeps: number[] = [];
  const client = createUpstreamClient({
    baseUrl: SANDBOX,
    apiKey: API_KEY,
    accountId: ACCOUNT_ID,
    timeoutMs: 5000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  return { client, sleeps };
}

async function admin<T>(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${SANDBOX}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

interface FaultSpec {
  path: string;
  method?: string;
  mode: "status" | "timeout-after-create" | "malformed" | "delay";
  status?: number;
  msBeforeNext?: number;
  delayMs?: number;
  times?: number;
  variant?: "truncated" | "shape";
}

async function injectFault(spec: FaultSpec): Promise<void> {
  const res = await admin("/sandbox/faults", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(spec),
  });
  expect(res.status).toBe(201);
}

/** Requests the sandbox logged for `method path` (optionally with one query value). */
async function logged(method: string, path: string, query?: [string, string]) {
  const res = await admin<{ data: { status: number; query: Record<string, string> }[] }>(
    `/sandbox/requests?path=${encodeURIComponent(path)}&method=${method}`,
  );
  return res.body.data.filter((r) => !query || r.query[query[0]] === query[1]);
}

/** Invoices in the sandbox with this orderId (scans the list; proves "exactly one"). */
async function invoicesWithOrderId(id: string): Promise<number> {
  const { client } = sandboxClient();
  let found = 0;
  for (let page = 1; ; page++) {
    const list = await client.listInvoices({ page, limit: 100 });
    found += list.items.filter((i) => i.orderId === id).length;
    if (!list.hasMore) return found;
  }
}

// A fault left over by a failed test must not leak into the next test or file.
clearFaultsAfterEach();

describe("sandbox: every endpoint parses", () => {
  it("catalogue and accounts", async () => {
    const { client } = sandboxClient();
    const currencies = await client.listCurrencies();
    const usdtBep20 = currencies.find((c) => c.code === "USDT_BEP20");
    expect(usdtBep20).toMatchObject({ decimalPlaces: 18, tokenType: "bep20", network: "BNB" });
    expect(typeof usdtBep20?.minDepositAmount).toBe("string");
    expect(currencies.find((c) => c.code === "BTC")?.contractAddress).toBeNull();
    const tron = await client.listCurrencies("Tron");
    expect(tron.length).toBeGreaterThan(0);
    expect(tron.every((c) => c.network === "Tron")).toBe(true);
    const fiat = await client.listFiatCurrencies();
    expect(fiat.find((f) => f.code === "USD")).toMatchObject({ decimalPlaces: 2 });
    const accounts = await client.listAccounts();
    expect(accounts.map((a) => a.id)).toContain(ACCOUNT_ID);
  });

  it("invoice: create, read by id and orderId, list, cancel", async () => {
    const { client } = sandboxClient();
    const id = orderId("life");
    const invoice = await client.createInvoice({
      orderId: id,
      fiatCurrencyCode: "USD",
      amount: "49.90",
      description: "Integration",
      customPayload: "opaque-1",
    });
    expect(invoice).toMatchObject({
      orderId: id,
      amount: "49.9",
      fiatCurrencyCode: "USD",
      status: "created",
      customPayload: "opaque-1",
      cryptoCurrencyCode: null,
      settlement: null,
    });
    expect(invoice.paymentPageUrl).toMatch(/^http/);
    expect((await client.getInvoice({ id: invoice.id })).orderId).toBe(id);
    expect((await client.getInvoice({ orderId: id })).id).toBe(invoice.id);
    const page = await client.listInvoices({ status: "created", limit: 5 });
    expect(page.limit).toBe(5);
    await client.cancelInvoice({ id: invoice.id });
    expect((await client.getInvoice({ id: invoice.id })).status).toBe("cancelled");
  });

  it("currency lock (sandbox extension) yields what a wallet link needs", async () => {
    const { client } = sandboxClient();
    const invoice = await client.createInvoice({
      orderId: orderId("lock"),
      fiatCurrencyCode: "USD",
      amount: "25",
    });
    const locked = await lockInvoiceCurrency(client, {
      invoiceId: invoice.id,
      cryptoCurrencyCode: "USDT_BEP20",
    });
    expect(locked.cryptoCurrencyCode).toBe("USDT_BEP20");
    expect(locked.cryptoAmountExpected).toMatch(/^\d+(\.\d+)?$/);
    const currency = (await client.listCurrencies("BNB")).find((c) => c.code === "USDT_BEP20")!;
    const uri = walletUri({
      currency,
      address: locked.address,
      amount: locked.cryptoAmountExpected,
      sandbox: true,
    });
    expect(uri).toMatch(
      new RegExp(
        `^ethereum:${currency.contractAddress}@97/transfer\\?address=${locked.address}&uint256=\\d+$`,
      ),
    );
  });

  it("deposit: idempotent create and read", async () => {
    const { client } = sandboxClient();
    const id = orderId("dep");
    const first = await client.createDeposit({ orderId: id, cryptoCurrencyCode: "USDT_TRC20" });
    const again = await client.createDeposit({ orderId: id, cryptoCurrencyCode: "USDT_TRC20" });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ orderId: id, cryptoCurrencyCode: "USDT_TRC20" });
    expect(first.minimumAmount).toMatch(/^\d+(\.\d+)?$/);
    const read = await client.getDeposit({ orderId: id });
    expect(read).toMatchObject({ id: first.id, status: "created", address: first.address });
  });

  it("withdrawal: quote (idempotent), commit, read", async () => {
    const { client } = sandboxClient();
    const id = orderId("wd");
    const input = {
      orderId: id,
      cryptoCurrencyCode: "USDT_TRC20",
      address: `T${"A".repeat(33)}`,
      amount: "10.123456",
    };
    const quote = await client.quoteWithdrawal(input);
    expect(quote.amount).toBe("10.123456");
    expect((await client.quoteWithdrawal(input)).quoteId).toBe(quote.quoteId);
    const withdrawal = await client.commitWithdrawal({ quoteId: quote.quoteId });
    expect(withdrawal).toMatchObject({ orderId: id, amount: "10.123456", quoteId: quote.quoteId });
    expect((await client.getWithdrawal({ orderId: id })).id).toBe(withdrawal.id);
  });
});

describe("sandbox: errors", () => {
  it("same orderId twice → the same invoice", async () => {
    const { client } = sandboxClient();
    const id = orderId("idem");
    const before = (await logged("POST", "/invoice")).length;
    const a = await client.createInvoice({ orderId: id, fiatCurrencyCode: "EUR", amount: "12.5" });
    const b = await client.createInvoice({ orderId: id, fiatCurrencyCode: "EUR", amount: "12.50" });
    expect(b.id).toBe(a.id);
    expect((await logged("POST", "/invoice")).length - before).toBe(2);
    expect(await invoicesWithOrderId(id)).toBe(1);
  });

  it("validation errors surface the service's code, and 4xx is not retried", async () => {
    const { client, sleeps } = sandboxClient();
    const before = (await logged("POST", "/invoice")).length;
    const decimals = await upstreamFailure(
      client.createInvoice({ orderId: orderId("dp"), fiatCurrencyCode: "USD", amount: "1.001" }),
    );
    expect(decimals).toMatchObject({
      kind: "http",
      status: 400,
      code: "exceptions.invoice.amountInvalidDecimalPlaces",
    });
    expect(decimals.requestId).toMatch(/^req_/);
    const unknown = await upstreamFailure(
      client.createInvoice({ orderId: orderId("fx"), fiatCurrencyCode: "XXX", amount: "10" }),
    );
    expect(unknown.code).toBe("exceptions.invoice.fiatCurrencyNotFound");
    const small = await upstreamFailure(
      client.createInvoice({ orderId: orderId("min"), fiatCurrencyCode: "USD", amount: "0.5" }),
    );
    expect(small.code).toBe("exceptions.invoice.amountBelowMinimum");
    expect((await logged("POST", "/invoice")).length - before).toBe(3);
    expect(sleeps).toEqual([]);
  });

  it("a wrong API key: http 401 invalidApiKey, key absent from the error, not retried", async () => {
    const wrongKey = "sk_wrong_key_for_test_1234";
    const { client } = sandboxClient({ apiKey: wrongKey });
    const before = (await logged("GET", "/accounts")).length;
    const error = await upstreamFailure(client.listAccounts());
    expect(error).toMatchObject({
      kind: "http",
      status: 401,
      code: "exceptions.auth.invalidApiKey",
    });
    const text = `${error.message} ${error.stack} ${JSON.stringify(error)}`;
    expect(text).not.toContain(wrongKey);
    expect(text).not.toContain(API_KEY);
    expect((await logged("GET", "/accounts")).length - before).toBe(1);
  });
});

describe("sandbox: fault injection", () => {
  it("5xx then success: retried with the same orderId, one invoice", async () => {
    const { client, sleeps } = sandboxClient();
    const id = orderId("5xx");
    await injectFault({ path: "/invoice", method: "POST", mode: "status", status: 503, times: 1 });
    const before = await logged("POST", "/invoice");
    const invoice = await client.createInvoice({
      orderId: id,
      fiatCurrencyCode: "USD",
      amount: "30",
    });
    const attempts = (await logged("POST", "/invoice")).slice(before.length);
    expect(attempts.map((r) => r.status)).toEqual([503, 201]);
    expect(sleeps).toHaveLength(1);
    expect((await client.getInvoice({ orderId: id })).id).toBe(invoice.id);
    expect(await invoicesWithOrderId(id)).toBe(1);
  });

  it("timeout after create, then retry: one invoice, the same one", async () => {
    const { client } = sandboxClient({ timeoutMs: 300 });
    const id = orderId("tac");
    await injectFault({
      path: "/invoice",
      method: "POST",
      mode: "timeout-after-create",
      delayMs: 2000,
      times: 1,
    });
    const before = (await logged("POST", "/invoice")).length;
    const invoice = await client.createInvoice({
      orderId: id,
      fiatCurrencyCode: "USD",
      amount: "31",
    });
    expect(invoice.orderId).toBe(id);
    expect(await invoicesWithOrderId(id)).toBe(1);
    expect((await client.getInvoice({ orderId: id })).id).toBe(invoice.id);
    // The timed-out request is logged once the sandbox finally answers it.
    await vi.waitFor(
      async () => expect((await logged("POST", "/invoice")).length - before).toBe(2),
      { timeout: 10_000, interval: 100 },
    );
  });

  it("a retry that meets a different invoice under the orderId throws the conflict", async () => {
    const { client } = sandboxClient();
    const id = orderId("conf");
    await client.createInvoice({ orderId: id, fiatCurrencyCode: "USD", amount: "10" });
    await injectFault({ path: "/invoice", method: "POST", mode: "status", status: 502, times: 1 });
    const error = await upstreamFailure(
      client.createInvoice({ orderId: id, fiatCurrencyCode: "USD", amount: "11" }),
    );
    expect(error).toMatchObject({ status: 409, code: "exceptions.invoice.orderIdAlreadyExists" });
    // It looked the orderId up before giving up.
    expect(await logged("GET", "/invoice", ["orderId", id])).toHaveLength(1);
  });

  it("429 waits msBeforeNext in full (recorded by the injected sleep)", async () => {
    const { client, sleeps } = sandboxClient();
    await injectFault({
      path: "/currencies/fiat",
      method: "GET",
      mode: "status",
      status: 429,
      msBeforeNext: 1234,
      times: 1,
    });
    await client.listFiatCurrencies();
    expect(sleeps).toEqual([1234]);
  });

  it("429 with msBeforeNext beyond 10 s: no early retry, the error carries retryAfterMs", async () => {
    // The old behaviour (wait 10 s, then retry anyway) sent a request 590 s before the
    // service allowed one; now the caller gets the hint to pass on as Retry-After.
    const { client, sleeps } = sandboxClient();
    await injectFault({
      path: "/currencies/fiat",
      method: "GET",
      mode: "status",
      status: 429,
      msBeforeNext: 600_000,
      times: 1,
    });
    const before = (await logged("GET", "/currencies/fiat")).length;
    const error = await upstreamFailure(client.listFiatCurrencies());
    expect(error).toMatchObject({
      status: 429,
      code: "exceptions.rateLimit.exceeded",
      retryAfterMs: 600_000,
    });
    expect(sleeps).toEqual([]);
    expect((await logged("GET", "/currencies/fiat")).length - before).toBe(1);
  });

  it("a delay longer than the per-attempt timeout on a GET is retried and succeeds", async () => {
    const { client } = sandboxClient({ timeoutMs: 300 });
    await injectFault({
      path: "/currencies/fiat",
      method: "GET",
      mode: "delay",
      delayMs: 1500,
      times: 1,
    });
    const before = (await logged("GET", "/currencies/fiat")).length;
    const fiats = await client.listFiatCurrencies();
    expect(fiats.map((f) => f.code)).toContain("USD");
    // The delayed request is logged once the sandbox finally answers it: two requests in all.
    await vi.waitFor(
      async () => expect((await logged("GET", "/currencies/fiat")).length - before).toBe(2),
      { timeout: 10_000, interval: 100 },
    );
  });

  it("a malformed body is invalid_response naming the field, not retried", async () => {
    const { client } = sandboxClient();
    const invoice = await client.createInvoice({
      orderId: orderId("mal"),
      fiatCurrencyCode: "USD",
      amount: "5",
    });
    await injectFault({ path: "/invoice", method: "GET", mode: "malformed", variant: "shape" });
    const before = (await logged("GET", "/invoice")).length;
    const shape = await upstreamFailure(client.getInvoice({ id: invoice.id }));
    expect(shape.kind).toBe("invalid_response");
    expect(shape.message).toMatch(/GET \/invoice: invalid answer: data: /);
    expect((await logged("GET", "/invoice")).length - before).toBe(1);

    await injectFault({ path: "/invoice", method: "GET", mode: "malformed", variant: "truncated" });
    const truncated = await upstreamFailure(client.getInvoice({ id: invoice.id }));
    expect(truncated.kind).toBe("invalid_response");
    expect(truncated.message).toContain("not JSON");
  });
});
