/**
 * @module
 * How the worker reaches each shared Durable Object (currency list, payment mode, account index,
 * budget, reconciler, and a follower by its id): one function per object, from the name it is
 * known by. The feature objects' stubs live beside their RPC faces (`order/order-stub.ts`,
 * `deposit/deposit-stub.ts`, `payout/payout-stub.ts`). Nothing else calls `idFromName`, so an
 * object's naming rule lives in these files and in `ids/` only.
 *
 * - order: its checkout id (`lib/ids/checkout-id.ts`, kind `invoice`);
 * - top-up: its checkout id (kind `deposit`, `d` + 22 characters);
 * - payout: `payout:<orderId>`;
 * - currency list: its cache key; payment-mode record: service + account;
 * - stream hub: `stream-hub-<n>` (`core/streams/hub-name.ts`);
 * - account index, upstream budget and reconciler: the account's key (`core/account/account-key.ts`
 *   `accountKey`: service base URL + account id), one of each per service account.
 *
 * The `…FromUrl` variants take an id from a request and answer 404 for one of the wrong shape
 * without touching any object.
 */
import type { CoreEnv } from "../config/core-env.ts";
import type { NotifierRpc } from "../events/notifier-rpc.ts";
import type { WatchedKind, WatchedRpc } from "../streams/stream-hub-rpc.ts";

/** The currency list kept under a cache key. */
export function catalogStub(env: CoreEnv, key: string) {
  return env.CATALOG.get(env.CATALOG.idFromName(key));
}

/** The payment-mode record of one service + account key. */
export function paymentModeStub(env: CoreEnv, key: string) {
  return env.PAYMENT_MODES.get(env.PAYMENT_MODES.idFromName(key));
}

/**
 * The account's index (orders, notification log, webhook health) of one service + account key
 * (`core/account/account-key.ts`).
 *
 * @example
 * await accountStub(env, accountKey(config)).listOrders({}, 50, null);
 */
export function accountStub(env: CoreEnv, key: string) {
  return env.ACCOUNTS.get(env.ACCOUNTS.idFromName(key));
}

const NOTIFIER_SOURCE = /^(order|deposit|payout):([0-9a-f]{64})$/;

/**
 * The object whose outbox a notification source names (`core/events/notifier-rpc.ts`), or null
 * for a name of another shape.
 *
 * @example
 * await notifierStub(env, "order:8f3c…")?.redeliverNotification("evt_…");
 */
export function notifierStub(env: CoreEnv, source: string): NotifierRpc | null {
  const m = NOTIFIER_SOURCE.exec(source);
  if (!m) return null;
  const namespace = { order: env.ORDERS, deposit: env.DEPOSITS, payout: env.PAYOUTS }[
    m[1] as "order" | "deposit" | "payout"
  ];
  return namespace.get(namespace.idFromString(m[2]!)) as unknown as NotifierRpc;
}

/**
 * The deployment's upstream budget of one service account.
 *
 * @example
 * await budgetStub(env, accountKey(config)).status();
 */
export function budgetStub(env: CoreEnv, key: string) {
  return env.BUDGETS.get(env.BUDGETS.idFromName(key));
}

/**
 * The reconciler of one service account (the same key as its budget).
 *
 * @example
 * await reconcilerStub(env, accountKey(config)).register(rows);
 */
export function reconcilerStub(env: CoreEnv, key: string) {
  return env.RECONCILERS.get(env.RECONCILERS.idFromName(key));
}

/**
 * A watched object (order or top-up) by its id's hex, as a stream hub calls it.
 *
 * @example
 * await watchedStub(env, "order", "8f3c…").streamUnwatched("stream-hub-3");
 */
export function watchedStub(env: CoreEnv, kind: WatchedKind, idHex: string): WatchedRpc {
  const namespace = kind === "order" ? env.ORDERS : env.DEPOSITS;
  return namespace.get(namespace.idFromString(idHex)) as unknown as WatchedRpc;
}

/**
 * The stream hub named `name` (`core/streams/hub-name.ts` `streamHubName`).
 *
 * @example
 * await streamHubStub(env, streamHubName(checkoutId)).publish(key, frames);
 */
export function streamHubStub(env: CoreEnv, name: string) {
  return env.STREAM_HUBS.get(env.STREAM_HUBS.idFromName(name));
}
