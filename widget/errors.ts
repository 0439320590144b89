/**
 * @module
 * Error codes from the worker (and the widget's own `network`, `missing_token`) to the
 * shopper's words. Typed against `ApiErrorCode`, so a misspelt code fails the typecheck.
 * Codes left out on purpose get the generic message: they mean a bug or a merchant-side call
 * (`bad_request`, `payload_too_large`, `invalid_json`, `schema_invalid`, `signature_*`,
 * `insufficient_balance`, `nothing_to_refund`, `refund_address_missing`, `internal`) or are
 * handled before reaching here (`lock_unsupported` switches to the hosted page).
 */
import type { ApiErrorCode } from "../packages/contract/src/http-api.ts";
import type { TextKey } from "./i18n/index.ts";

const MESSAGES: Partial<Record<ApiErrorCode | "network" | "missing_token", TextKey>> = {
  network: "errorNetwork",
  missing_token: "errorNoToken",
  unauthorized: "errorToken",
  token_invalid: "errorToken",
  token_expired: "errorTokenExpired",
  token_lifetime_exceeded: "errorToken",
  validation_failed: "errorToken",
  amount_invalid_decimals: "errorToken",
  not_found: "errorNotFound",
  checkout_conflict: "errorConflict",
  attempt_open: "errorAttemptOpen",
  order_paid: "errorOrderPaid",
  order_refunded: "statusRefunded",
  order_id_collision: "errorContactShop",
  amount_below_minimum: "errorBelowMinimum",
  // The token's fiat currency: the shop's to fix, nothing for the shopper to choose. A crypto
  // code the worker or the service does not offer is `currency_unavailable`: choose another.
  unknown_currency: "errorContactShop",
  currency_unavailable: "errorCurrency",
  invalid_address: "addressInvalid",
  refund_address_frozen: "errorRefundAddressFrozen",
  service_busy: "errorBusy",
  upstream_error: "errorBusy",
  rate_limited: "errorRateLimited",
  config_error: "errorConfig",
  forbidden_origin: "errorOrigin",
};

/** Failures worth asking again (the token and the checkout are fine): "Retry", keep polling. */
export const TRANSIENT = new Set([
  "network",
  "service_busy",
  "upstream_error",
  "rate_limited",
  "internal",
]);

/**
 * The message key for an error code; unknown codes get the generic message.
 *
 * @example
 * messageFor("token_expired") // "errorTokenExpired"
 * messageFor("brand_new_code") // "errorGeneric"
 */
export function messageFor(code: string): TextKey {
  return MESSAGES[code as ApiErrorCode] ?? "errorGeneric";
}
