/**
 * @module
 * The error every `MerchantClient` call throws: the worker's `{ error: { code, message } }`
 * with the HTTP status, or a client-side code (`network_error`, `timeout`, `invalid_response`)
 * with status 0 when no usable answer came back.
 */
import type { ApiErrorCode } from "../types.ts";

/** Codes only the client produces (the worker never answers them). */
export type ClientErrorCode = "network_error" | "timeout" | "invalid_response";

/**
 * @example
 * try { await client.order("1001"); }
 * catch (error) {
 *   if (error instanceof MerchantApiError && error.code === "not_found") …
 * }
 */
export class MerchantApiError extends Error {
  readonly code: ApiErrorCode | ClientErrorCode | (string & {});
  /** The HTTP status; 0 when the request got no answer. */
  readonly status: number;
  /** Seconds to wait before retrying, from `Retry-After` (429, 503). */
  readonly retryAfter: number | undefined;
  constructor(status: number, code: string, message: string, retryAfter?: number) {
    super(message);
    this.name = "MerchantApiError";
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }

  /** The error as the worker shapes it. */
  toJSON(): { code: string; message: string; status: number } {
    return { code: this.code, message: this.message, status: this.status };
  }
}
