/**
 * Issue 20, items 11 and 12: every answer of the worker carries `X-Content-Type-Options:
 * nosniff` (JSON, each kind of error, CORS refusals and preflights, the SSE stream a Durable
 * Object hands over), and the worker's own 429 carries `Retry-After` in whole seconds ≥ 1.
 * (`/widget.js` is a static asset: `test/e2e/asset-headers.test.ts` checks it under wrangler.)
 */
import { describe, expect, it } from "vitest";
import { CHECKOUT_LIMIT_PERIOD_S } from "../../worker/edge/http/limits.ts";
import { openCheckout, postJson, STOREFRONT, uniqueIp, uniqueSub, worker } from "./helpers.ts";

async function answer(path: string, init: RequestInit = {}) {
  const res = await worker(path, init);
  await res.body?.cancel();
  return res;
}

describe("X-Content-Type-Options: nosniff on every answer (issue 20, item 11)", () => {
  it.each<[string, string, RequestInit, number]>([
    ["the root", "/", {}, 200],
    ["a live list", "/v1/currencies", { headers: { origin: STOREFRONT } }, 200],
    ["a malformed network (400)", "/v1/currencies?network=%3Cscript%3E", {}, 400],
    ["an unknown route (404)", "/nope", {}, 404],
    ["an unknown checkout (404)", "/v1/checkouts/AAAAAAAAAAAAAAAAAAAAAA", {}, 404],
    [
      "a refused origin (403)",
      "/v1/currencies",
      { headers: { origin: "https://evil.example" } },
      403,
    ],
    [
      "a CORS preflight",
      "/v1/checkouts",
      {
        method: "OPTIONS",
        headers: {
          origin: STOREFRONT,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      },
      204,
    ],
    ["a merchant call without Bearer (401)", "/v1/orders/1001", {}, 401],
    [
      "an unsigned webhook (401)",
      "/webhooks/payment",
      { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
      401,
    ],
  ])("%s", async (_what, path, init, status) => {
    const res = await answer(path, init);
    expect(res.status).toBe(status);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a bad token (401) and a body too large (413)", async () => {
    const bad = await postJson(
      "/v1/checkouts",
      { token: "x.y.z" },
      { "cf-connecting-ip": uniqueIp() },
    );
    expect(bad.status).toBe(401);
    expect(bad.headers.get("x-content-type-options")).toBe("nosniff");
    const big = await postJson(
      "/v1/checkouts",
      { token: "x".repeat(20_000) },
      { "cf-connecting-ip": uniqueIp() },
    );
    expect(big.status).toBe(413);
    expect(big.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the SSE stream the order object answers", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("sniff") });
    const res = await worker(`/v1/checkouts/${body.data.id}/events`, {
      headers: { origin: STOREFRONT },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    await res.body?.cancel();
  });
});

describe("the worker's own 429 says when to come back (issue 20, item 12)", () => {
  it("checkout creation over the per-client limit: 429 rate_limited with Retry-After = the limit's period", async () => {
    const ip = uniqueIp();
    let limited: Response | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await postJson(
        "/v1/checkouts",
        { token: "not-a-token" },
        { "cf-connecting-ip": ip },
      );
      if (res.status === 429) limited = res;
      else await res.body?.cancel();
    }
    expect(limited, "no 429 after 40 creations").toBeDefined();
    const body = (await limited!.json()) as { error: { code: string } };
    expect(body.error.code).toBe("rate_limited");
    const retryAfter = limited!.headers.get("retry-after");
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(retryAfter)).toBe(CHECKOUT_LIMIT_PERIOD_S);
  });
});
