/**
 * `@crypto-checkout/server`'s `MerchantClient` against the real merchant routes (inside
 * workerd, through `helpers.ts`'s `worker()`, so every answer is also checked against the
 * OpenAPI document): typed results, and each refusal as `MerchantApiError {code, message, status}`.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MerchantApiError, MerchantClient } from "../../packages/server/src/index.ts";
import { ORDER_CSV_COLUMNS } from "../../worker/lib/api/merchant-ops.ts";
import { eventually } from "../support/wait.ts";
import { seedOrders, summary, testIndex } from "./account-index.ts";
import { openCheckout, uniqueSub, worker } from "./helpers.ts";

const viaWorker = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return worker(`${url.pathname}${url.search}`, init);
}) as typeof fetch;

const client = new MerchantClient({
  baseUrl: "https://checkout.example",
  token: env.MERCHANT_API_TOKEN as string,
  fetch: viaWorker,
});

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MerchantApiError);
  return (error as MerchantApiError).toJSON();
}

describe("MerchantClient on the real routes", () => {
  it("reads an order's ledger, typed", async () => {
    const sub = uniqueSub("cli");
    expect((await openCheckout({ sub, amount: "12.50" })).status).toBe(201);
    const ledger = await client.order(sub);
    expect(ledger).toMatchObject({ invoiceNumber: sub, state: "unpaid", amount: "12.50" });
    expect(ledger.attempts).toHaveLength(1);
  });

  it("refuses what the routes refuse, as {code, message, status}", async () => {
    expect(await refusal(client.order(uniqueSub("none")))).toMatchObject({
      status: 404,
      code: "not_found",
    });
    const quote = client.quotePayout({
      orderId: "bad id with spaces",
      cryptoCurrencyCode: "USDT_TRC20",
      address: "T",
      amount: "1",
    });
    const refused = await refusal(quote);
    expect(refused).toMatchObject({ status: 400, code: "validation_failed" });
    expect(refused.message).toContain("orderId");
    const sub = uniqueSub("unpaid");
    await openCheckout({ sub });
    expect((await refusal(client.refund(sub))).status).toBe(409);
  });

  it("refuses a wrong token with 401 unauthorized, whose message never echoes it", async () => {
    const stranger = new MerchantClient({
      baseUrl: "https://checkout.example",
      token: "not-the-merchant-token-0001",
      fetch: viaWorker,
    });
    const refused = await refusal(stranger.doctor());
    expect(refused).toMatchObject({ status: 401, code: "unauthorized" });
    expect(refused.message).not.toContain("not-the-merchant-token-0001");
  });

  it("returns the doctor's report whether it passed or not", async () => {
    const report = await client.doctor();
    expect(typeof report.ok).toBe("boolean");
    expect(report.checks.some((check) => check.name === "config")).toBe(true);
  });

  it("lists, iterates and exports the account's orders, and refuses a bad filter", async () => {
    const p = uniqueSub("C").replace(/[^A-Za-z0-9]/g, "");
    const at = (m: number) => `2026-04-01T00:0${m}:00.000Z`;
    await seedOrders([
      summary({ invoiceNumber: `${p}a`, createdAt: at(1), state: "paid", amountPaid: "10.00" }),
      summary({ invoiceNumber: `${p}b`, createdAt: at(2) }),
      summary({ invoiceNumber: `${p}c`, createdAt: at(3), state: "paid", amountPaid: "10.00" }),
    ]);
    const page = await client.listOrders({ invoicePrefix: p, limit: 2 });
    expect(page.data.map((o) => o.invoiceNumber)).toEqual([`${p}c`, `${p}b`]);
    expect(page.nextCursor).toEqual(expect.any(String));
    const all: string[] = [];
    for await (const order of client.orders({ invoicePrefix: p, limit: 2 }))
      all.push(order.invoiceNumber);
    expect(all).toEqual([`${p}c`, `${p}b`, `${p}a`]);
    const paid = await client.listOrders({ invoicePrefix: p, state: ["paid", "refunded"] });
    expect(paid.data.map((o) => o.invoiceNumber)).toEqual([`${p}c`, `${p}a`]);
    const csv = (await client.ordersCsv({ invoicePrefix: p })).trimEnd().split("\r\n");
    expect(csv[0]).toBe(ORDER_CSV_COLUMNS.join(","));
    expect(csv.slice(1).map((line) => line.split(",")[0])).toEqual([`${p}c`, `${p}b`, `${p}a`]);
    const refused = await refusal(client.listOrders({ invoicePrefix: p, currency: "usd" }));
    expect(refused).toMatchObject({ status: 400, code: "validation_failed" });
    expect(refused.message).toContain("currency");
  });

  it("reads the notification log, sends test events, and refuses an unknown redelivery", async () => {
    const sent = await client.sendTestNotifications("order.paid");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: "order.paid", attempts: expect.any(Number) });
    // The index's own outbox reports the test event to its log when its alarm runs.
    await runDurableObjectAlarm(testIndex() as unknown as DurableObjectStub);
    const logged = await eventually(async () => {
      const page = await client.listNotifications({ limit: 100 });
      return page.data.find((n) => n.id === sent[0]!.id) ?? null;
    });
    expect(logged).toMatchObject({ id: sent[0]!.id, type: "order.paid" });
    const unknown = await refusal(
      client.redeliverNotification("evt_00000000-0000-4000-8000-000000000000"),
    );
    expect(unknown).toMatchObject({ status: 404, code: "not_found" });
  });
});
