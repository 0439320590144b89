/**
 * @module
 * How the payout reads a refusal of the service: the reason in its code, and whether a
 * refused commit is about its quote (so that a fresh quote for the same orderId can succeed).
 */
import { UpstreamError } from "../service/errors.ts";

/**
 * The reason of a service's HTTP refusal (the last part of its code), or undefined.
 *
 * @example
 * reasonOf(error); // "insufficientBalance" for `exceptions.withdrawal.insufficientBalance`
 */
export function reasonOf(error: unknown): string | undefined {
  return error instanceof UpstreamError && error.kind === "http"
    ? (error.code ?? "").split(".").pop()
    : undefined;
}

/**
 * True when a commit was refused because of its quote, so that a fresh quote (same orderId)
 * can succeed. The service publishes no code for an expired quote (SDK 1.5.0 says only that
 * after `expiresAt` a quote "can no longer be committed. Re-issue a new quote if expired"; its
 * published withdrawal codes name `notFound`, `malformedQuote`, `quoteKindMismatch`,
 * `quoteDecisionMissing`…), so this branches on the answer's shape, not on a code: a definite
 * 4xx to a commit (whose only input is the quote) is about the quote, except insufficient
 * balance (the quote is fine, the balance is not: re-quoting would not help) and the answers
 * about the caller (401, 403, 408, 429). Re-quoting is always safe: the orderId backs at most one
 * withdrawal, and a re-quote after a commit is answered 409 and adopts it.
 *
 * @example
 * if (mayRequote && refusesQuote(error)) return "quote_refused";
 */
export function refusesQuote(error: unknown): boolean {
  if (!(error instanceof UpstreamError) || error.kind !== "http") return false;
  const status = error.status ?? 0;
  if (status < 400 || status > 499 || [401, 403, 408, 429].includes(status)) return false;
  return reasonOf(error) !== "insufficientBalance";
}
