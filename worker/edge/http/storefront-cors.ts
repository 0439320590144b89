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
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { errorResponse } from "../../lib/api-error.ts";
import type { AppEnv } from "./types.ts";

const METHODS = "GET, POST, OPTIONS";
const HEADERS = "content-type, last-event-id";

type Middleware = ReturnType<typeof cors>;
/** One CORS middleware per allow-list (the parsed configuration lives as long as the isolate). */
const byAllowList = new WeakMap<readonly string[], Middleware>();

function corsFor(allowed: readonly string[]): Middleware {
  let middleware = byAllowList.get(allowed);
  if (!middleware) {
    middleware = cors({
      origin: (o) => (allowed.includes(o) || allowed.includes("*") ? o : null),
      allowMethods: ["GET", "POST", "OPTIONS"],
      allowHeaders: ["content-type", "last-event-id"],
      maxAge: 600,
    });
    byAllowList.set(allowed, middleware);
  }
  return middleware;
}

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
  return corsFor(allowed)(c, next);
});
