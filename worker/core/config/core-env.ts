/**
 * @module
 * The bindings the core needs (settings, the shared objects' namespaces), as wrangler provides
 * them (vars are strings, secrets are strings). Every field is optional here: `parseConfig`
 * decides what is required and says so by name.
 *
 * The followers' namespaces (`ORDERS`, `DEPOSITS`, `PAYOUTS`) appear here only by the narrow
 * faces the core calls them through (`FollowerRpc`, `NotifierRpc`, by id only); each feature's own RPC
 * interface types them in the full `Env` (`edge/env.ts`), so the core never imports a feature.
 *
 * @example
 * export class CatalogObject extends DurableObject<CoreEnv> { … }
 */

import type { AccountRpc } from "../account/account-rpc.ts";
import type { BudgetRpc } from "../budget/budget-rpc.ts";
import type { CatalogRpc } from "../catalog/catalog-rpc.ts";
import type { ReconcilerRpc } from "../reconciler/reconciler-rpc.ts";
import type { StreamHubRpc } from "../streams/stream-hub-rpc.ts";
import type { PaymentModeRpc } from "./payment-mode-rpc.ts";

/**
 * An order, top-up or payout namespace as the core sees it: only how to reach one object by id.
 * The core calls it through `FollowerRpc` (the reconciler) or `NotifierRpc` (the account's
 * redelivery); the full `Env` narrows it to the feature's own `DurableObjectNamespace`.
 */
export interface FollowerNamespaceBinding {
  idFromString(id: string): DurableObjectId;
  get(id: DurableObjectId): unknown;
}

export interface CoreEnv {
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
  /** The merchant's wallet for x402 payments (EIP-55); unset: x402 off. */
  X402_PAY_TO?: string;
  /** CAIP-2 network of x402 payments; default `eip155:84532` with `SANDBOX=true`, else `eip155:8453`. */
  X402_NETWORK?: string;
  /** The service's x402 facilitator; default the service's base URL + `/x402`. */
  X402_FACILITATOR_URL?: string;
  ORDERS: FollowerNamespaceBinding;
  DEPOSITS: FollowerNamespaceBinding;
  PAYOUTS: FollowerNamespaceBinding;
  CATALOG: DurableObjectNamespace<CatalogRpc>;
  PAYMENT_MODES: DurableObjectNamespace<PaymentModeRpc>;
  /** One index per service account: orders, notification log, webhook health. */
  ACCOUNTS: DurableObjectNamespace<AccountRpc>;
  BUDGETS: DurableObjectNamespace<BudgetRpc>;
  RECONCILERS: DurableObjectNamespace<ReconcilerRpc>;
  /** `STREAM_HUB_COUNT` hubs holding every watcher's SSE stream (`core/streams/`). */
  STREAM_HUBS: DurableObjectNamespace<StreamHubRpc>;
  CHECKOUT_RATE_LIMIT?: RateLimit;
  /** x402 payment attempts per client IP (`POST /v1/checkouts/:id/x402`). */
  X402_RATE_LIMIT?: RateLimit;
  /** Currency locks per client, across all its checkouts (`edge/http/limits.ts`). */
  LOCK_RATE_LIMIT?: RateLimit;
  ASSETS?: Fetcher;
}
