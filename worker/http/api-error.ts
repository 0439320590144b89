/**
 * @module
 * The one error type routes throw, and its JSON shape `{ error: { code, message } }`.
 *
 * Invariant: messages are written for the widget and the merchant; they never interpolate
 * secrets or raw upstream bodies.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorBody, ApiErrorCode } from "../api/contract.ts";

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
 * A JSON error response without throwing.
 *
 * @example
 * return errorResponse(404, "not_found", "No such checkout.");
 */
export function errorResponse(status: number, code: ApiErrorCode, message: string): Response {
  return Response.json({ error: { code, message } } satisfies ApiErrorBody, {
    status,
    headers: { "cache-control": "no-store" },
  });
}
