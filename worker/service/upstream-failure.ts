/**
 * @module
 * Maps upstream errors to codes the widget can show. The service's own code is logged (with
 * its request id) but never shown raw to a shopper, and no message ever carries a secret.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorCode } from "../../packages/contract/src/http-api.ts";
import type { Logger } from "../lib/log.ts";
import { failure, type Outcome } from "../lib/outcome/outcome.ts";
import { UpstreamError } from "./errors.ts";
import { isUncertain } from "./retry-policy.ts";
import { SHARE_REFUSAL } from "./transport.ts";

type Mapped = [ContentfulStatusCode, ApiErrorCode, string];

const BY_REASON: Record<string, Mapped> = {
  amountBelowMinimum: [
    400,
    "amount_below_minimum",
    "The amount is below the payment service's minimum.",
  ],
  amountInvalidDecimalPlaces: [
    400,
    "amount_invalid_decimals",
    "The amount has more decimal places than the currency allows.",
  ],
  fiatCurrencyNotFound: [
    400,
    "unknown_currency",
    "The payment service does not accept this currency.",
  ],
  currencyNotFound: [
    400,
    "currency_unavailable",
    "This crypto currency is not available right now.",
  ],
  expired: [409, "attempt_open", "This payment attempt has expired; start a new one."],
  notInCreatedStatus: [409, "attempt_open", "This payment attempt can no longer change."],
  orderIdAlreadyExists: [
    409,
    "checkout_conflict",
    "The payment service already has this order with other details.",
  ],
  invalidAddress: [400, "invalid_address", "The address is not valid for this currency."],
  insufficientBalance: [
    409,
    "insufficient_balance",
    "The merchant balance is too low for this payout.",
  ],
  quoteUnavailable: [503, "service_busy", "The payment service is busy; try again in a moment."],
  invalidApiKey: [
    502,
    "config_error",
    "The payment service rejected the API key; the merchant should run `npm run doctor`.",
  ],
};

/**
 * True when a failed create may still have created the object upstream (no answer, a garbled
 * answer, or a 5xx after the request may have been processed).
 *
 * @example
 * isUncertainFailure(new UpstreamError("timeout", "no answer")); // true
 */
export function isUncertainFailure(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  // The retry policy's "uncertain", plus a garbled answer: the service may have acted on a
  // request whose answer we could not read (it is not retried, but it is not a refusal either).
  // And any answer after an attempt that may have reached the service: the first attempt may
  // have done the work even when the last one was refused.
  return isUncertain(error) || error.kind === "invalid_response" || error.afterUncertain === true;
}

/**
 * Converts a thrown upstream error into a failed outcome; rethrows anything else.
 *
 * @example
 * try { … } catch (error) { return upstreamFailure(error, log); }
 */
export function upstreamFailure(error: unknown, log: Logger): Outcome<never> {
  if (!(error instanceof UpstreamError)) throw error;
  log.warn("upstream.error", {
    kind: error.kind,
    status: error.status ?? null,
    code: error.code ?? null,
    requestId: error.requestId ?? null,
  });
  if (error.kind === "timeout" || error.kind === "network") {
    return failure(
      503,
      "service_busy",
      "The payment service did not answer; try again in a moment.",
    );
  }
  if (error.kind === "invalid_response") {
    return failure(502, "upstream_error", "The payment service sent an unexpected answer.");
  }
  if (error.status === 429 && error.code === SHARE_REFUSAL) {
    // This client holds its fair share of the deployment's budget: it asks too much, the
    // service is not busy (`core/budget/shares.ts`).
    const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
    return failure(
      429,
      "rate_limited",
      `Too many requests from this address; try again in ${seconds} s.`,
      seconds,
    );
  }
  if (error.status === 429) {
    // The service's own rate limit: tell the client when to come back (whole seconds, ≥ 1).
    const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
    return failure(
      429,
      "service_busy",
      "The payment service is busy; try again in a moment.",
      seconds,
    );
  }
  const reason = error.code?.split(".").pop() ?? "";
  const mapped = BY_REASON[reason];
  if (mapped) return failure(...mapped);
  if ((error.status ?? 0) >= 500) {
    return failure(
      503,
      "service_busy",
      "The payment service is having trouble; try again in a moment.",
    );
  }
  // The service's code is in the log line above; shoppers get a generic message.
  return failure(502, "upstream_error", "The payment service refused the request.");
}
