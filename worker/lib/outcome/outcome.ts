/**
 * @module
 * Results of Durable Object RPC calls. Errors cross the RPC boundary as plain data because
 * thrown errors lose their status and code on the way. Every feature (orders, top-ups, payouts,
 * the catalogue's routes) answers this way, so it belongs to none of them.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorCode } from "../../../packages/contract/src/http-api.ts";
import { ApiError } from "../api-error.ts";

export type Outcome<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      status: ContentfulStatusCode;
      code: ApiErrorCode;
      message: string;
      /** Seconds the client should wait before trying again (sent as `Retry-After`). */
      retryAfter?: number;
    };

/** A successful outcome. */
export const success = <T>(value: T): Outcome<T> => ({ ok: true, value });

/** A failed outcome. */
export const failure = (
  status: ContentfulStatusCode,
  code: ApiErrorCode,
  message: string,
  retryAfter?: number,
): Outcome<never> =>
  retryAfter === undefined
    ? { ok: false, status, code, message }
    : { ok: false, status, code, message, retryAfter };

/**
 * Unwraps an outcome in a route, throwing its error as an `ApiError`.
 *
 * @example
 * const snapshot = unwrap(await stub.view());
 */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw new ApiError(outcome.status, outcome.code, outcome.message, outcome.retryAfter);
}
