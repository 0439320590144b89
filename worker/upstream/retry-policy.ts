/**
 * @module
 * Which failed attempts may be sent again, and how long to wait first.
 *
 * - `safe`: GETs and the idempotent creates (POST /invoice, /deposit, /withdrawal/quote). The
 *   service collapses a repeated orderId into the original object, and the client re-sends
 *   the byte-identical body, so a retry can never create a second object. Retried on timeout,
 *   network error, 5xx and 429.
 * - `commit`: POST /withdrawal/commit. The service backs at most one withdrawal per quote
 *   (per accountId+orderId), so re-sending a commit of the same quoteId after an uncertain
 *   outcome (timeout, dropped connection, 5xx) cannot pay out twice. 429 is *not* retried:
 *   a payout should not silently linger behind a rate limit; the caller decides.
 * - `never`: everything else (cancel, the sandbox currency lock): one attempt only.
 * A 4xx other than 429 is never retried: the same request would get the same answer.
 */
import type { UpstreamError } from "./errors.ts";

/** Retry class of an operation; see the module header. */
export type RetryPolicy = "safe" | "commit" | "never";

/** Longest wait honoured from a 429's `msBeforeNext` / Retry-After. */
export const MAX_RETRY_AFTER_MS = 10_000;
const BASE_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2_000;

/**
 * True when a failed attempt with `error` may be sent again under `policy`.
 * @example shouldRetry("safe", new UpstreamError("timeout", "…")); // true
 */
export function shouldRetry(policy: RetryPolicy, error: UpstreamError): boolean {
  if (policy === "never") return false;
  if (error.kind === "timeout" || error.kind === "network") return true;
  if (error.kind !== "http" || error.status === undefined) return false;
  if (error.status >= 500) return true;
  return error.status === 429 && policy === "safe";
}

/**
 * Milliseconds to wait before attempt `attempt + 1`: the service's hint for 429 (capped),
 * else exponential backoff (200, 400, 800, … ≤ 2000 ms).
 * @example retryDelayMs(new UpstreamError("http", "…", { status: 429, retryAfterMs: 1500 }), 1); // 1500
 */
export function retryDelayMs(error: UpstreamError, attempt: number): number {
  if (error.status === 429 && error.retryAfterMs !== undefined) {
    return Math.min(Math.max(error.retryAfterMs, 0), MAX_RETRY_AFTER_MS);
  }
  return Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
}

/**
 * True when an attempt ended without knowing whether the service acted on it (it may have
 * created the object): timeout, network failure or a 5xx.
 * @example isUncertain(new UpstreamError("timeout", "…")); // true
 */
export function isUncertain(error: UpstreamError): boolean {
  return (
    error.kind === "timeout" ||
    error.kind === "network" ||
    (error.kind === "http" && (error.status ?? 0) >= 500)
  );
}
