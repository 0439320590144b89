/**
 * @module request-log
 * A capped log of API requests (never admin ones, never the API key): what a client actually
 * sent, in order, for tests that check retries, idempotency keys and backoff, and the order each
 * is about (so a bench can tell whose calls the service answered).
 */
import type { MiddlewareHandler } from "hono";
import type { RequestLogEntry } from "./control-records.ts";
import { requestOrderId } from "./fault-scope.ts";
import { nowIso, type SandboxState } from "./state.ts";

/** Entries kept; older ones are dropped first. */
export const REQUEST_LOG_CAP = 5000;

const requestIds = new WeakMap<Request, string>();

/**
 * Middleware that gives every request an id and answers it in `x-request-id`.
 * @example
 * app.use("*", requestIdMiddleware());
 */
export function requestIdMiddleware(): MiddlewareHandler {
  return async (c, next) => {
    const id = `req_${crypto.randomUUID()}`;
    requestIds.set(c.req.raw, id);
    await next();
    c.res.headers.set("x-request-id", id);
  };
}

/**
 * Middleware that records each request once its response is known.
 * @example
 * app.use("*", requestLogMiddleware(state));
 */
export function requestLogMiddleware(state: SandboxState): MiddlewareHandler {
  return async (c, next) => {
    const at = nowIso(state);
    const url = new URL(c.req.url);
    // Read before the handler (a create's orderId is in its body; a lock names its invoice).
    const orderId = await requestOrderId(state, c);
    await next();
    state.requests.push({
      at,
      method: c.req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: c.res.status,
      authorized: c.req.header("x-tenant-api-key") === state.options.apiKey,
      requestId: requestIds.get(c.req.raw) ?? "",
      orderId,
    });
    if (state.requests.length > REQUEST_LOG_CAP)
      state.requests.splice(0, state.requests.length - REQUEST_LOG_CAP);
  };
}

/**
 * Filters the log for GET /sandbox/requests (`path` exact, `method`, `since` ISO inclusive).
 * @example
 * queryRequests(state, new URLSearchParams("path=/invoice&method=POST"));
 */
export function queryRequests(state: SandboxState, q: URLSearchParams): RequestLogEntry[] {
  const path = q.get("path");
  const method = q.get("method")?.toUpperCase();
  const since = q.get("since");
  const sinceMs = since ? Date.parse(since) : Number.NaN;
  return state.requests.filter(
    (r) =>
      (!path || r.path === path) &&
      (!method || r.method === method) &&
      (Number.isNaN(sinceMs) || Date.parse(r.at) >= sinceMs),
  );
}
