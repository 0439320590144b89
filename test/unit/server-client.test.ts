/**
 * The server package's `MerchantClient` over a recording `fetch`: what it sends (Bearer token,
 * paths, query strings, JSON bodies), how it reads pages and follows cursors, and the typed
 * `MerchantApiError` it throws for every kind of failure. The real routes answer it in
 * `test/worker/server-client.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { MerchantApiError, MerchantClient } from "../../packages/server/src/index.ts";

interface Call {
  url: string;
  method: string;
  authorization: string | null;
  body: unknown;
}

function fakeWorker(answer: (url: URL, call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const text = await request.text();
    const call = {
      url: request.url,
      method: request.method,
      authorization: request.headers.get("authorization"),
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    return answer(new URL(request.url), call);
  }) as typeof globalThis.fetch;
  const client = new MerchantClient({
    baseUrl: "https://checkout.example/",
    token: "tok_123",
    fetch,
  });
  return { client, calls };
}

const summary = (invoiceNumber: string) => ({ invoiceNumber, state: "paid" });

describe("MerchantClient", () => {
  it("sends the Bearer token and reads { data } of one order", async () => {
    const { client, calls } = fakeWorker(() => Response.json({ data: { invoiceNumber: "A/1" } }));
    expect(await client.order("A/1")).toEqual({ invoiceNumber: "A/1" });
    expect(calls[0]).toMatchObject({
      url: "https://checkout.example/v1/orders/A%2F1",
      method: "GET",
      authorization: "Bearer tok_123",
    });
  });

  it("builds list queries from filters: several states joined, dates as ISO instants, unset ones left out", async () => {
    const { client, calls } = fakeWorker(() => Response.json({ data: [], nextCursor: null }));
    await client.listOrders({
      state: ["paid", "refunded"],
      createdFrom: new Date("2026-01-01T00:00:00Z"),
      invoicePrefix: "web-",
      limit: 10,
    });
    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe("/v1/orders");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      state: "paid,refunded",
      createdFrom: "2026-01-01T00:00:00.000Z",
      invoicePrefix: "web-",
      limit: "10",
    });
  });

  it("iterates every order across pages by cursor, in order", async () => {
    const pages: Record<string, { data: unknown[]; nextCursor: string | null }> = {
      "": { data: [summary("3"), summary("2")], nextCursor: "c1" },
      c1: { data: [summary("1")], nextCursor: "c2" },
      c2: { data: [], nextCursor: null },
    };
    const { client, calls } = fakeWorker((url) =>
      Response.json(pages[url.searchParams.get("cursor") ?? ""]),
    );
    const seen: string[] = [];
    for await (const order of client.orders({ state: "paid", limit: 2 }))
      seen.push(order.invoiceNumber);
    expect(seen).toEqual(["3", "2", "1"]);
    expect(calls.map((c) => new URL(c.url).search)).toEqual([
      "?state=paid&limit=2",
      "?state=paid&limit=2&cursor=c1",
      "?state=paid&limit=2&cursor=c2",
    ]);
  });

  it("stops an iteration whose cursor does not move, instead of looping", async () => {
    const { client } = fakeWorker(() =>
      Response.json({ data: [summary("1")], nextCursor: "same" }),
    );
    const read = async () => {
      for await (const _ of client.notifications()) {
        // drains
      }
    };
    await expect(read()).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("posts JSON bodies: refund amount, payout quote, commit, redeliver, test events", async () => {
    const { client, calls } = fakeWorker(() => Response.json({ data: {} }, { status: 201 }));
    await client.refund("1001", { amount: "0.5" });
    await client.refund("1002");
    await client.quotePayout({
      orderId: "p1",
      cryptoCurrencyCode: "BTC",
      address: "tb1q",
      amount: "0.01",
    });
    await client.commitPayout("p1");
    await client.redeliverNotification("evt_1");
    await client.sendTestNotifications("order.paid");
    expect(calls.map((c) => [c.method, new URL(c.url).pathname, c.body])).toEqual([
      ["POST", "/v1/orders/1001/refund", { amount: "0.5" }],
      ["POST", "/v1/orders/1002/refund", {}],
      [
        "POST",
        "/v1/payouts",
        { orderId: "p1", cryptoCurrencyCode: "BTC", address: "tb1q", amount: "0.01" },
      ],
      ["POST", "/v1/payouts/p1/commit", undefined],
      ["POST", "/v1/notifications/evt_1/redeliver", undefined],
      ["POST", "/v1/notifications/test", { type: "order.paid" }],
    ]);
  });

  it("returns CSV text as sent", async () => {
    const csv = "invoiceNumber,state\r\n1001,paid\r\n";
    const { client } = fakeWorker(
      () => new Response(csv, { headers: { "content-type": "text/csv" } }),
    );
    expect(await client.ordersCsv({ currency: "EUR" })).toBe(csv);
  });

  it("returns the doctor's report when it fails (502) instead of throwing", async () => {
    const report = { ok: false, checks: [] };
    const { client } = fakeWorker(() => Response.json({ data: report }, { status: 502 }));
    expect(await client.doctor()).toEqual(report);
  });

  it("throws MerchantApiError {code, message, status, retryAfter} for the worker's error answers", async () => {
    const { client } = fakeWorker(() =>
      Response.json(
        { error: { code: "service_busy", message: "Busy." } },
        { status: 503, headers: { "retry-after": "1" } },
      ),
    );
    const error = await client.order("1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MerchantApiError);
    expect((error as MerchantApiError).toJSON()).toEqual({
      code: "service_busy",
      message: "Busy.",
      status: 503,
    });
    expect((error as MerchantApiError).retryAfter).toBe(1);
  });

  it("throws invalid_response for a non-JSON error page and for a 200 without data, never leaking the token", async () => {
    const html = fakeWorker(() => new Response("<h1>Bad gateway</h1>", { status: 502 }));
    const e1 = (await html.client.order("1").catch((c: unknown) => c)) as MerchantApiError;
    expect([e1.status, e1.code]).toEqual([502, "invalid_response"]);
    const empty = fakeWorker(() => Response.json({ nope: 1 }));
    const e2 = (await empty.client.payout("p").catch((c: unknown) => c)) as MerchantApiError;
    expect([e2.status, e2.code]).toEqual([200, "invalid_response"]);
    expect(`${e1.message}${e2.message}`).not.toContain("tok_123");
  });

  it("throws network_error (status 0) when fetch fails", async () => {
    const { client } = fakeWorker(() => {
      throw new TypeError("fetch failed");
    });
    await expect(client.doctor()).rejects.toMatchObject({ status: 0, code: "network_error" });
  });

  it("throws timeout (status 0) when no answer comes within timeoutMs", async () => {
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      })) as typeof fetch;
    const client = new MerchantClient({
      baseUrl: "https://checkout.example",
      token: "tok_123",
      fetch: hanging,
      timeoutMs: 20,
    });
    await expect(client.order("1")).rejects.toMatchObject({ status: 0, code: "timeout" });
  });

  it("refuses to be built without an http(s) base URL or a token", () => {
    expect(() => new MerchantClient({ baseUrl: "checkout.example", token: "t" })).toThrow(
      /baseUrl/,
    );
    expect(() => new MerchantClient({ baseUrl: "https://x", token: "" })).toThrow(/token/);
  });
});
