/**
 * @module
 * How the widget tells the storefront's developer what went wrong: a `checkout:error` event
 * whose detail carries the worker's own developer message (e.g. "25.005 EUR has more than 2
 * decimal places.", or which origin `ALLOWED_ORIGINS` lacks) beside the shopper's text, and the
 * same line in the console. The developer message never reaches the shopper's view: it is
 * English, technical, and may name configuration.
 */
import { ApiFailure } from "./api.ts";
import type { Emit } from "./events.ts";

/**
 * Reports a failure; returns its code (`internal` for anything that is not an `ApiFailure`).
 *
 * @example
 * const code = reportFailure(emit, error, (code) => t(messageFor(code)));
 */
export function reportFailure(emit: Emit, e: unknown, shopperText: (code: string) => string) {
  const code = e instanceof ApiFailure ? e.code : "internal";
  const developerMessage = e instanceof Error ? e.message : String(e);
  console.error(`[crypto-checkout] ${code}: ${developerMessage}`);
  emit("checkout:error", { code, message: shopperText(code), developerMessage });
  return code;
}
