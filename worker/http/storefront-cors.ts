/**
 * @module
 * CORS for the widget's routes: only `ALLOWED_ORIGINS` may call them from a browser. A request
 * carrying any other `Origin` is refused outright with 403 `forbidden_origin` (browsers would
 * block the answer anyway; refusing means it also changes nothing). Requests without `Origin`
 * (same-origin navigation, servers, curl) pass.
 */
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { errorResponse } from "./api-error.ts";
import type { AppEnv } from "./types.ts";

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
    return errorResponse(
      403,
      "forbidden_origin",
      `Origin ${origin.slice(0, 200)} is not allowed to use this checkout.`,
    );
  }
  return corsFor(allowed)(c, next);
});
