/**
 * @module
 * The worker's bindings as wrangler provides them: the core's (`core-env.ts`) plus each
 * feature object's namespace typed by its RPC interface (`*-rpc.ts`), never by its class: a
 * class imports half the worker, and every one of those modules needs `Env`. Only the edge
 * (routes, webhooks, the entry) takes the whole `Env`; an object takes what it reaches.
 */

import type { CoreEnv } from "../core/config/core-env.ts";
import type { DepositsBinding } from "../deposit/deposit-rpc.ts";
import type { OrdersBinding } from "../order/order-rpc.ts";
import type { PayoutsBinding } from "../payout/payout-rpc.ts";

export interface Env extends CoreEnv {
  ORDERS: OrdersBinding["ORDERS"];
  DEPOSITS: DepositsBinding["DEPOSITS"];
  PAYOUTS: PayoutsBinding["PAYOUTS"];
}
