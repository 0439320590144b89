/**
 * @module
 * CORS for the widget's routes: only `ALLOWED_ORIGINS` may call them from a browser. A request
 * carrying any other `Origin` is refused outright with 403 `forbidden_origin` and changes
 * nothing. Requests without `Origin` (same-origin navigation, servers, curl) pass.
 *
 * The refusal is made *readable* by the refused page (its own origin in
 * `Access-Control-Allow-Origin`, and a preflight that lets the real request through to be
 * refused): otherwise the browser hides the 403 and the widget can only say "cannot reach the
 * checkout service". Reading it exposes nothing: the body names the page's own origin and the
 * setting to change, never the list of allowed origins, and no credentials are ever allowed.
 */
import { createMiddleware } from "hono/factory";
import { errorResponse } from "../../lib/api-error.ts";
import type { AppEnv } from "./types.ts";

const METHODS = "GET, POST, OPTIONS";
const HEADERS = "content-type, last-event-id, payment-signature";
/** The x402 headers a page may read (`edge/routes/x402.ts`). */
const EXPOSED = "PAYMENT-REQUIRED, PAYMENT-RESPONSE, Retry-After";

/**
 * The CORS headers of an allowed (or absent) origin: the answers `hono/cors` gave with
 * `allowMethods` GET, POST, OPTIONS, `allowHeaders` content-type, last-event-id and `maxAge`
 * 600, written out (≈ 0.4 KB of the gzip bundle, README "Worker bundle size";
 * `test/worker/storefront-cors.test.ts` pins them). An allowed origin is echoed; a preflight
 * ends here with 204; every other answer gets `Vary: Origin`.
 */
const allowedCors = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("origin");
  // Set on the pending answer: hono carries these headers over to the one the route returns.
  if (origin) c.res.headers.set("Access-Control-Allow-Origin", origin);
  if (c.req.method === "OPTIONS") {
    const headers = c.res.headers;
    headers.append("Vary", "Origin");
    headers.set("Access-Control-Max-Age", "600");
    headers.set("Access-Control-Allow-Methods", "GET,POST,OPTIONS");
    headers.set("Access-Control-Allow-Headers", "content-type,last-event-id,payment-signature");
    headers.append("Vary", "Access-Control-Request-Headers");
    headers.delete("Content-Length");
    headers.delete("Content-Type");
    return new Response(null, { headers, status: 204, statusText: "No Content" });
  }
  await next();
  c.header("Vary", "Origin", { append: true });
  if (origin) c.header("Access-Control-Expose-Headers", EXPOSED);
});

/** CORS + origin allow-list. Must run after `requireConfig`. */
export const storefrontCors = createMiddleware<AppEnv>(async (c, next) => {
  const allowed = c.var.config.ALLOWED_ORIGINS;
  const origin = c.req.header("origin");
  if (origin && !allowed.includes(origin) && !allowed.includes("*")) {
    const readable = { "access-control-allow-origin": origin, vary: "Origin" };
    if (c.req.method === "OPTIONS") {
      // The preflight passes so that the real request arrives and gets the readable 403.
      return c.body(null, 204, {
        ...readable,
        "access-control-allow-methods": METHODS,
        "access-control-allow-headers": HEADERS,
      });
    }
    const response = errorResponse(
      403,
      "forbidden_origin",
      `Origin ${origin.slice(0, 200)} is not in this checkout's ALLOWED_ORIGINS: add it to the worker's ALLOWED_ORIGINS variable (comma-separated origins) to let this site use the checkout.`,
    );
    for (const [name, value] of Object.entries(readable)) response.headers.set(name, value);
    return response;
  }
  return allowedCors(c, next);
});
