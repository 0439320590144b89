/**
 * The widget routes' CORS headers, exactly (`worker/edge/http/storefront-cors.ts`): what an
 * allowed origin's preflight and request get, what a request without `Origin` gets. They are
 * the answers `hono/cors` gave with the same options before the worker wrote them out; the
 * refused origin's answers are `checkouts.test.ts`'s.
 */
import { describe, expect, it } from "vitest";
import { STOREFRONT, worker } from "./helpers.ts";

const headersOf = (res: Response, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, res.headers.get(name)]));

const CORS = [
  "access-control-allow-origin",
  "access-control-allow-credentials",
  "access-control-expose-headers",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-max-age",
  "vary",
];

describe("storefront CORS", () => {
  it("an allowed origin's preflight: 204, no body, the methods, headers and max-age", async () => {
    const res = await worker("/v1/checkouts", {
      method: "OPTIONS",
      headers: {
        origin: STOREFRONT,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-other",
      },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect(headersOf(res, CORS)).toEqual({
      "access-control-allow-origin": STOREFRONT,
      "access-control-allow-credentials": null,
      "access-control-expose-headers": null,
      "access-control-allow-methods": "GET,POST,OPTIONS",
      // PAYMENT-SIGNATURE: the widget's x402 payment (`edge/routes/x402.ts`).
      "access-control-allow-headers": "content-type,last-event-id,payment-signature",
      "access-control-max-age": "600",
      vary: "Origin, Access-Control-Request-Headers",
    });
  });

  it("an allowed origin's request: its origin allowed, Vary: Origin", async () => {
    const res = await worker("/v1/currencies", { headers: { origin: STOREFRONT } });
    expect(res.status).toBe(200);
    expect(headersOf(res, CORS)).toEqual({
      "access-control-allow-origin": STOREFRONT,
      "access-control-allow-credentials": null,
      // The x402 headers and Retry-After, readable by the page (`storefront-cors.ts`).
      "access-control-expose-headers": "PAYMENT-REQUIRED, PAYMENT-RESPONSE, Retry-After",
      "access-control-allow-methods": null,
      "access-control-allow-headers": null,
      "access-control-max-age": null,
      vary: "Origin",
    });
  });

  it("a request without Origin: no origin allowed, still Vary: Origin; an error answer alike", async () => {
    const res = await worker("/v1/currencies");
    expect(res.status).toBe(200);
    expect(headersOf(res, CORS)).toMatchObject({
      "access-control-allow-origin": null,
      vary: "Origin",
    });
    const missing = await worker("/v1/checkouts/AAAAAAAAAAAAAAAAAAAAAA", {
      headers: { origin: STOREFRONT },
    });
    expect(missing.status).toBe(404);
    expect(headersOf(missing, CORS)).toMatchObject({
      "access-control-allow-origin": STOREFRONT,
      vary: "Origin",
    });
  });
});
