/**
 * @module
 * What the rest of the worker may ask a top-up (`DepositObject`) through its stub, without
 * importing the class: `Env` names the `DEPOSITS` namespace by this interface, and
 * `DepositObject implements DepositRpc` keeps the two in step.
 */

import type { DepositSnapshot } from "../../packages/contract/src/http-api.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import type { NotifierRpc } from "../core/events/notifier-rpc.ts";
import type { FollowerRpc } from "../core/reconciler/reconciler-rpc.ts";
import type { WatchedRpc } from "../core/streams/stream-hub-rpc.ts";
import type { Outcome } from "../lib/outcome/outcome.ts";
import type { Deposit } from "../service/types.ts";
import type { DepositCurrency } from "./store.ts";

/** What the route passes when a widget opens a top-up. */
export interface OpenDeposit {
  checkoutId: string;
  topUpId: string;
  customerId: string | null;
  currency: DepositCurrency;
  /** Who opens it (`edge/http/client-key.ts`): its create counts in that client's budget share. */
  client?: string;
}

/** The top-up's RPC methods (see `deposit-object.ts` for what each does). */
export interface DepositRpc extends Rpc.DurableObjectBranded, NotifierRpc, FollowerRpc, WatchedRpc {
  open(input: OpenDeposit): Promise<Outcome<{ created: boolean; snapshot: DepositSnapshot }>>;
  view(): Promise<Outcome<DepositSnapshot>>;
  applyDepositWebhook(delivery: Delivery<Deposit>): Promise<DeliveryOutcome>;
}

/** The binding that reaches these objects (part of `Env`; taken alone by who calls them). */
export interface DepositsBinding {
  DEPOSITS: DurableObjectNamespace<DepositRpc>;
}
