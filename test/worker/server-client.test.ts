/**
 * `@crypto-checkout/server`'s `MerchantClient` against the real merchant routes (inside
 * workerd, through `helpers.ts`'s `worker()`, so every answer is also checked against the
 * OpenAPI document): typed results, and each refusal as `MerchantApiError {code, message, status}`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MerchantApiError, MerchantClient } from "../../packages/server/src/index.ts";
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
});
