/**
 * @module rate-limit
 * The service's per-API-key rate limit, as the sandbox plays it (`SANDBOX_RATE_LIMIT`): at most
 * `limit` API requests per key in each one-second window, the window starting at the key's
 * first request after the last one ended (a fixed window per key, as the service's
 * `msBeforeNext` suggests). A request over the limit is answered 429
 * `exceptions.rateLimit.exceeded` with `extension.msBeforeNext` (ms until the window ends) and
 * is not counted. Keys are counted as sent, valid or not, so a wrong key cannot spend a right
 * one's calls; at most `MAX_KEYS` keys are tracked (the oldest window is dropped first).
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse, WireError } from "./wire.ts";

/** Length of one window. */
export const RATE_WINDOW_MS = 1_000;
/** Keys tracked at once (a bound on what callers can grow). */
export const MAX_KEYS = 1_000;

interface Window {
  start: number;
  count: number;
}

/**
 * Counts one request of `key` at `now`: null when allowed, else the ms before the next window.
 *
 * @example
 * const limiter = createRateLimiter(20);
 * limiter.take("k", Date.now()); // null (allowed)
 */
export function createRateLimiter(limit: number) {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new Error(`rate limit must be ≥ 1: ${limit}`);
  const windows = new Map<string, Window>();
  return {
    take(key: string, now: number): number | null {
      let w = windows.get(key);
      if (!w || now >= w.start + RATE_WINDOW_MS) {
        w = { start: now, count: 0 };
        windows.delete(key);
        windows.set(key, w);
        if (windows.size > MAX_KEYS) windows.delete(windows.keys().next().value as string);
      }
      if (w.count >= limit) return Math.max(1, w.start + RATE_WINDOW_MS - now);
      w.count += 1;
      return null;
    },
  };
}

/**
 * Middleware answering 429 over `limit` requests a second per `x-tenant-api-key`.
 *
 * @example
 * app.use("*", rateLimitMiddleware(20, () => Date.now()));
 */
export function rateLimitMiddleware(limit: number, now: () => number): MiddlewareHandler {
  const limiter = createRateLimiter(limit);
  return async (c, next) => {
    const wait = limiter.take(c.req.header("x-tenant-api-key") ?? "", now());
    if (wait === null) return next();
    c.res = errorResponse(
      new WireError(429, "exceptions.rateLimit.exceeded", "Too many requests", {
        msBeforeNext: wait,
      }),
    );
  };
}
