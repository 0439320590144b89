/**
 * @module
 * The one error type routes throw, and its JSON shape `{ error: { code, message } }`.
 *
 * Invariant: messages are written for the widget and the merchant; they never interpolate
 * secrets or raw upstream bodies.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorBody, ApiErrorCode } from "../../packages/contract/src/http-api.ts";

/**
 * An error with an HTTP status and a stable code.
 *
 * @example
 * throw new ApiError(409, "checkout_conflict", "This order already has a checkout with another amount.");
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ApiErrorCode;
  /** Seconds before a retry may succeed; sent as `Retry-After` when set. */
  readonly retryAfter?: number;
  constructor(
    status: ContentfulStatusCode,
    code: ApiErrorCode,
    message: string,
    retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
  }

  /** The JSON body for this error. */
  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

/**
 * The `Retry-After` value (whole seconds, ≥ 1) an error answer carries: its own hint rounded up,
 * and for every 429 at least 1 s even without one (a client told "too many" is always told when
 * to come back). Undefined for other statuses without a hint.
 *
 * @example
 * retryAfterSeconds(429, undefined); // "1"
 * retryAfterSeconds(503, 0.2); // "1"
 */
export function retryAfterSeconds(status: number, retryAfter?: number): string | undefined {
  if (retryAfter === undefined || !Number.isFinite(retryAfter)) {
    return status === 429 ? "1" : undefined;
  }
  return String(Math.max(1, Math.ceil(retryAfter)));
}

/**
 * The headers of every error answer: never cached, and `Retry-After` where `retryAfterSeconds`
 * gives one.
 */
export function errorHeaders(status: number, retryAfter?: number): Record<string, string> {
  const seconds = retryAfterSeconds(status, retryAfter);
  return { "cache-control": "no-store", ...(seconds ? { "retry-after": seconds } : {}) };
}

/**
 * A JSON error response without throwing; `retryAfter` (seconds) becomes `Retry-After`.
 *
 * @example
 * return errorResponse(404, "not_found", "No such checkout.");
 * return errorResponse(429, "rate_limited", "Too many checkouts…", 60);
 */
export function errorResponse(
  status: number,
  code: ApiErrorCode,
  message: string,
  retryAfter?: number,
): Response {
  return Response.json({ error: { code, message } } satisfies ApiErrorBody, {
    status,
    headers: errorHeaders(status, retryAfter),
  });
}
