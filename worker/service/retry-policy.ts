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
 *
 * A 429's hint is a promise not to be served earlier: the client waits it out in full or does
 * not retry at all (then the thrown error carries `retryAfterMs` for the caller's own
 * Retry-After). It never retries before the hint has passed.
 */
import { toDecimal } from "../lib/money/canonical.ts";
import type { UpstreamError } from "./errors.ts";

/** Retry class of an operation; see the module header. */
export type RetryPolicy = "safe" | "commit" | "never";

/** Longest 429 wait (`msBeforeNext` / Retry-After) the client sits out before retrying. */
export const MAX_RETRY_AFTER_MS = 10_000;
const BASE_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2_000;
/** Digits of a millisecond count that are still exact as a JS number (2^53 ≈ 9.007e15). */
const MAX_SAFE_DIGITS = 15;

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
 * Milliseconds to wait before attempt `attempt + 1`: the service's full hint for 429, else
 * exponential backoff (200, 400, 800, … ≤ 2000 ms). `undefined` when the hint is longer than
 * `MAX_RETRY_AFTER_MS`: the call must not be retried (retrying early would break the hint).
 * @example retryDelayMs(new UpstreamError("http", "…", { status: 429, retryAfterMs: 1500 }), 1); // 1500
 */
export function retryDelayMs(error: UpstreamError, attempt: number): number | undefined {
  if (error.status === 429 && error.retryAfterMs !== undefined) {
    return error.retryAfterMs > MAX_RETRY_AFTER_MS ? undefined : error.retryAfterMs;
  }
  return Math.min(BASE_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
}

/**
 * Reads a wait hint given as the exact text of a non-negative number of `unit`s (JSON
 * `msBeforeNext` source text, or Retry-After seconds) as whole milliseconds, rounded **up**
 * (waiting a fraction too long is harmless; too short is not). Decimal string arithmetic only:
 * a count too large to be exact is clamped to `Number.MAX_SAFE_INTEGER` (still "too long").
 * `undefined` for anything that is not such a number.
 *
 * @example
 * parseWaitMs("1500"); // 1500
 * parseWaitMs("1500.2"); // 1501
 * parseWaitMs("6e4"); // 60000
 * parseWaitMs("2", "s"); // 2000
 * parseWaitMs("-1"); // undefined
 */
export function parseWaitMs(source: string, unit: "ms" | "s" = "ms"): number | undefined {
  let canonical: string;
  try {
    canonical = toDecimal(source);
  } catch {
    return undefined;
  }
  if (canonical.startsWith("-")) return undefined;
  let [whole = "0", fraction = ""] = canonical.split(".");
  if (unit === "s") {
    // Shift the point three places: seconds → milliseconds, still as text.
    const padded = fraction.padEnd(3, "0");
    whole = `${whole}${padded.slice(0, 3)}`.replace(/^0+(?=\d)/, "");
    fraction = padded.slice(3).replace(/0+$/, "");
  }
  if (whole.length > MAX_SAFE_DIGITS) return Number.MAX_SAFE_INTEGER;
  // Canonical text has no trailing zeros: any fraction left is a non-zero remainder.
  return Number.parseInt(whole, 10) + (fraction === "" ? 0 : 1);
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
