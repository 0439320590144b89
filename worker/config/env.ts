/**
 * @module
 * The worker's bindings as wrangler provides them (vars are strings, secrets are strings).
 * Every field is optional here: `parseConfig` decides what is required and says so by name.
 */
export interface Env {
  DISPLAY_NAME?: string;
  API_KEY?: string;
  ACCOUNT_ID?: string;
  WEBHOOK_SIGNING_KEY?: string;
  SANDBOX?: string;
  ORDER_ID_PREFIX?: string;
  DEBUG_LOG?: string;
  CHECKOUT_SIGNING_SECRET?: string;
  MERCHANT_API_TOKEN?: string;
  MERCHANT_WEBHOOK_URL?: string;
  ALLOWED_ORIGINS?: string;
  PUBLIC_BASE_URL?: string;
  UPSTREAM_BASE_URL?: string;
  /** `auto` (default): in-page where the service offers the currency lock; `hosted`: always the payment page. */
  PAYMENT_MODE?: string;
  ORDERS: DurableObjectNamespace<import("../order/order-object.ts").OrderObject>;
  DEPOSITS: DurableObjectNamespace<import("../deposit/deposit-object.ts").DepositObject>;
  PAYOUTS: DurableObjectNamespace<import("../payout/payout-object.ts").PayoutObject>;
  CATALOG: DurableObjectNamespace<import("../checkout/catalog-object.ts").CatalogObject>;
  PAYMENT_MODES: DurableObjectNamespace<
    import("../checkout/payment-mode-object.ts").PaymentModeObject
  >;
  CHECKOUT_RATE_LIMIT?: RateLimit;
  ASSETS?: Fetcher;
}
