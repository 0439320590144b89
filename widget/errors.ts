/**
 * @module
 * Error codes from the worker (and `network`) to the shopper's words.
 */
import type { MessageKey } from "./i18n/index.ts";

const MESSAGES: Record<string, MessageKey> = {
  network: "errorNetwork",
  token_invalid: "errorToken",
  token_expired: "errorTokenExpired",
  validation_failed: "errorToken",
  missing_token: "errorNoToken",
  checkout_conflict: "errorConflict",
  amount_below_minimum: "errorBelowMinimum",
  amount_invalid_decimals: "errorToken",
  unknown_currency: "errorCurrency",
  currency_unavailable: "errorCurrency",
  invalid_address: "addressInvalid",
  service_busy: "errorBusy",
  rate_limited: "errorRateLimited",
  config_error: "errorConfig",
  forbidden_origin: "errorConfig",
};

/** The message key for an error code; unknown codes get the generic message. */
export function messageFor(code: string): MessageKey {
  return MESSAGES[code] ?? "errorGeneric";
}
