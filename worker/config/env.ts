/**
 * @module
 * The worker's bindings as wrangler provides them (vars are strings, secrets are strings).
 * Every field is optional here: `parseConfig` decides what is required and says so by name.
 *
 * The Durable Object namespaces are typed by each object's RPC interface (`*-rpc.ts`), never by
 * its class: a class imports half the worker, and every one of those modules needs `Env`.
 */

import type { AccountRpc } from "../account/account-rpc.ts";
import type { BudgetRpc } from "../budget/budget-rpc.ts";
import type { CatalogRpc } from "../catalog/catalog-rpc.ts";
import type { DepositRpc } from "../deposit/deposit-rpc.ts";
import type { OrderRpc } from "../order/order-rpc.ts";
import type { PayoutRpc } from "../payout/payout-rpc.ts";
import type { ReconcilerRpc } from "../reconciler/reconciler-rpc.ts";
import type { PaymentModeRpc } from "./payment-mode-rpc.ts";

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
  MERCHANT_WEBHOOK_SECRET?: string;
  MERCHANT_WEBHOOK_URL?: string;
  ALLOWED_ORIGINS?: string;
  PUBLIC_BASE_URL?: string;
  UPSTREAM_BASE_URL?: string;
  /** `auto` (default): in-page where the service offers the currency lock; `hosted`: always the payment page. */
  PAYMENT_MODE?: string;
  /** Calls per second the whole deployment makes to the service at most (default 10). */
  UPSTREAM_MAX_RPS?: string;
  ORDERS: DurableObjectNamespace<OrderRpc>;
  DEPOSITS: DurableObjectNamespace<DepositRpc>;
  PAYOUTS: DurableObjectNamespace<PayoutRpc>;
  CATALOG: DurableObjectNamespace<CatalogRpc>;
  PAYMENT_MODES: DurableObjectNamespace<PaymentModeRpc>;
  /** One index per service account: orders, notification log, webhook health. */
  ACCOUNTS: DurableObjectNamespace<AccountRpc>;
  BUDGETS: DurableObjectNamespace<BudgetRpc>;
  RECONCILERS: DurableObjectNamespace<ReconcilerRpc>;
  CHECKOUT_RATE_LIMIT?: RateLimit;
  ASSETS?: Fetcher;
}
