/**
 * The currency-lock adapter (the one use of the sandbox extension): what counts as "the service
 * does not have it", asked of the service whatever its host; and base-URL resolution.
 */
import { describe, expect, it } from "vitest";
import {
  PRODUCTION_BASE_URL,
  resolveUpstreamBaseUrl,
  SANDBOX_BASE_URL,
} from "../../worker/service/base-url.ts";
import { createUpstreamClient } from "../../worker/service/client.ts";
import {
  CurrencyLockUnsupportedError,
  isUnknownRoute,
  LOCK_CURRENCY_PATH,
  lockInvoiceCurrency,
} from "../../worker/service/currency-lock.ts";
import { UpstreamError } from "../../worker/service/errors.ts";

const INVOICE =
  '"id":"inv_1","orderId":"cc-1","amount":49.9,"fiatCurrencyCode":"USD","status":"created",' +
  '"paymentPageUrl":"https://pay.test/inv_1","createdAt":"2026-01-01T00:00:00Z","expiresAt":"2026-01-01T00:15:00Z"';

function clientAnswering(baseUrl: string, body: string, status = 200) {
  const calls: { url: string; body: string; key: string | null }[] = [];
  const client = createUpstreamClient({
    baseUrl,
    apiKey: "k-123456",
    accountId: "acc-1",
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({
        url: String(input),
        body: String(init?.body),
        key: new Headers(init?.headers).get("x-tenant-api-key"),
      });
      return new Response(body, { status });
    }) as typeof fetch,
    sleep: async () => {},
  });
  return { client, calls };
}

describe("resolveUpstreamBaseUrl", () => {
  it("override first, else the official sandbox or production URL", () => {
    expect(resolveUpstreamBaseUrl({ sandbox: true })).toBe(SANDBOX_BASE_URL);
    expect(resolveUpstreamBaseUrl({ sandbox: false })).toBe(PRODUCTION_BASE_URL);
    expect(resolveUpstreamBaseUrl({ sandbox: false, override: "  " })).toBe(PRODUCTION_BASE_URL);
    expect(resolveUpstreamBaseUrl({ sandbox: false, override: "http://127.0.0.1:8788/" })).toBe(
      "http://127.0.0.1:8788",
    );
    expect(() => resolveUpstreamBaseUrl({ sandbox: true, override: "ftp://x" })).toThrow(
      /UPSTREAM_BASE_URL/,
    );
    expect(() => resolveUpstreamBaseUrl({ sandbox: true, override: "not a url" })).toThrow(
      /UPSTREAM_BASE_URL/,
    );
  });
});

describe("isUnknownRoute", () => {
  it("the service's own 404/405 route answer is an unknown route; an invoice's 404, a 404 without the service's envelope (a gateway's) or another status is not", () => {
    const http = (status: number, code?: string) =>
      new UpstreamError("http", "x", { status, ...(code ? { code } : {}) });
    expect(isUnknownRoute(http(404, "exceptions.route.notFound"))).toBe(true);
    expect(isUnknownRoute(http(405, "exceptions.route.methodNotAllowed"))).toBe(true);
    // Issue 20, item 3: without the service's own code, a 404/405 decides nothing.
    expect(isUnknownRoute(http(404))).toBe(false);
    expect(isUnknownRoute(http(405))).toBe(false);
    expect(isUnknownRoute(http(404, "exceptions.invoice.notFound"))).toBe(false);
    expect(isUnknownRoute(http(400, "exceptions.validation.invalidBody"))).toBe(false);
    expect(isUnknownRoute(new UpstreamError("timeout", "x"))).toBe(false);
    expect(isUnknownRoute(new Error("x"))).toBe(false);
  });
});

describe("lockInvoiceCurrency", () => {
  it("posts {accountId, id, cryptoCurrencyCode} to the extension and returns the locked invoice", async () => {
    const { client, calls } = clientAnswering(
      "http://127.0.0.1:8788",
      `{"data":{${INVOICE},"cryptoCurrencyCode":"USDT_TRC20","cryptoAmountExpected":49.900000000000000001,"address":"TAddr"}}`,
    );
    const invoice = await lockInvoiceCurrency(client, {
      invoiceId: "inv_1",
      cryptoCurrencyCode: "USDT_TRC20",
    });
    expect(calls).toEqual([
      {
        url: `http://127.0.0.1:8788${LOCK_CURRENCY_PATH}`,
        body: '{"accountId":"acc-1","id":"inv_1","cryptoCurrencyCode":"USDT_TRC20"}',
        key: "k-123456",
      },
    ]);
    expect(invoice).toMatchObject({
      cryptoCurrencyCode: "USDT_TRC20",
      cryptoAmountExpected: "49.900000000000000001",
      address: "TAddr",
      expiresAt: "2026-01-01T00:15:00Z",
    });
  });

  it("an answer without the payment fields is invalid_response naming them", async () => {
    const { client } = clientAnswering("http://127.0.0.1:8788", `{"data":{${INVOICE}}}`);
    const error = await lockInvoiceCurrency(client, {
      invoiceId: "inv_1",
      cryptoCurrencyCode: "BTC",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe("invalid_response");
    expect((error as UpstreamError).message).toContain("data.address");
    expect((error as UpstreamError).message).toContain("data.cryptoAmountExpected");
  });

  it("asks whatever the host (also the official one): an unknown-route answer means unsupported", async () => {
    const { client, calls } = clientAnswering(
      SANDBOX_BASE_URL,
      '{"code":"exceptions.route.notFound","message":"No such route"}',
      404,
    );
    await expect(
      lockInvoiceCurrency(client, { invoiceId: "inv_1", cryptoCurrencyCode: "BTC" }),
    ).rejects.toBeInstanceOf(CurrencyLockUnsupportedError);
    expect(calls).toHaveLength(1);
    // A missing invoice is not a missing operation.
    const missing = clientAnswering(
      PRODUCTION_BASE_URL,
      '{"code":"exceptions.invoice.notFound","message":"Invoice not found"}',
      404,
    );
    const error = await lockInvoiceCurrency(missing.client, {
      invoiceId: "inv_1",
      cryptoCurrencyCode: "BTC",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
  });
});
