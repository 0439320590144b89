/**
 * @module
 * Errors a Durable Object call throws when the object, not the request, failed: it was reset
 * (a deploy, `ctx.abort()`, an exceeded limit), is overloaded, or the runtime says the call may
 * be retried. The request's outcome is then unknown to the caller, and every call that reaches
 * an object is safe to repeat (creation is single-flight, locks are idempotent, refunds resume
 * their hold, webhooks are deduped), so the answer is 503 with `Retry-After`, never a 500.
 */

/** The properties workerd sets on such errors (see Cloudflare's "Error handling" for Durable Objects). */
interface ObjectCallError {
  durableObjectReset?: boolean;
  retryable?: boolean;
  overloaded?: boolean;
}

/**
 * True when an error came from a Durable Object that could not finish the call.
 *
 * @example
 * try { await stub.retry(); } catch (error) {
 *   if (objectUnavailable(error)) return errorResponse(503, "service_busy", "…");
 *   throw error;
 * }
 */
export function objectUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as ObjectCallError;
  return e.durableObjectReset === true || e.retryable === true || e.overloaded === true;
}
