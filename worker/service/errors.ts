/**
 * @module
 * The one error type the upstream client throws, and the redaction every message goes through.
 *
 * Invariant: an `UpstreamError` never carries the API key: not in `message`, `code` or any
 * other field, even when the service (or a proxy in front of it) echoes request data back.
 * It never has a `cause` either, so no raw fetch error or request object rides along.
 */

/** Why a call failed: an HTTP error answer, no answer in time, no answer at all, or nonsense. */
export type UpstreamErrorKind = "http" | "timeout" | "network" | "invalid_response";

/** Details of an `UpstreamError` besides its kind and message. */
export interface UpstreamErrorDetails {
  /** HTTP status, when the service answered. */
  status?: number;
  /** The service's error code, e.g. `exceptions.invoice.amountBelowMinimum`. */
  code?: string;
  /** `x-request-id` (or `x-correlation-id`) of the failing answer, for support. */
  requestId?: string;
  /**
   * How long the service asked us to wait, whole ms rounded up (429 `extension.msBeforeNext`,
   * or Retry-After seconds). Set on a thrown 429 when the client did not wait it out: pass it
   * on as the caller's own Retry-After.
   */
  retryAfterMs?: number;
}

/**
 * A failed call to the payment service.
 *
 * @example
 * try { await client.getInvoice({ id }); } catch (e) {
 *   if (e instanceof UpstreamError && e.code === "exceptions.invoice.notFound") { … }
 * }
 */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  readonly kind: UpstreamErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  /**
   * Set by the transport when an earlier attempt of the same call may have reached the service
   * (timeout, dropped connection, 5xx): a definite-looking final answer (a 429, a 4xx) then says
   * nothing about whether the work was done.
   */
  afterUncertain?: boolean;

  constructor(kind: UpstreamErrorKind, message: string, details: UpstreamErrorDetails = {}) {
    super(message);
    this.kind = kind;
    // Only defined fields are set, so `"status" in error` means the service answered.
    if (details.status !== undefined) this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
    if (details.requestId !== undefined) this.requestId = details.requestId;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/** Longest piece of service-provided text copied into a message. */
const MAX_ECHO = 300;

/**
 * Removes every occurrence of each secret (raw and URL-encoded) from text that may have come
 * from the network, and truncates it.
 *
 * @example
 * redact("bad key sk_live_123", ["sk_live_123"]); // "bad key [redacted]"
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = String(text);
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      out = out.split(form).join("[redacted]");
    }
  }
  return out.length > MAX_ECHO ? `${out.slice(0, MAX_ECHO)}…` : out;
}
