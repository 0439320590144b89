/**
 * @module
 * What the rest of the worker may ask a payout (`PayoutObject`) through its stub, without
 * importing the class: `Env` names the `PAYOUTS` namespace by this interface, and
 * `PayoutObject implements PayoutRpc` keeps the two in step.
 */

import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import type { NotifierRpc } from "../core/events/notifier-rpc.ts";
import type { FollowerRpc } from "../core/reconciler/reconciler-rpc.ts";
import type { Outcome } from "../lib/outcome/outcome.ts";
import type { Withdrawal } from "../service/types.ts";
import type { PayoutRequest } from "./store.ts";

/** The payout's RPC methods (see `payout-object.ts` for what each does). */
export interface PayoutRpc extends Rpc.DurableObjectBranded, NotifierRpc, FollowerRpc {
  quote(req: PayoutRequest): Promise<Outcome<{ created: boolean; view: PayoutView }>>;
  view(): Promise<Outcome<PayoutView>>;
  commit(): Promise<Outcome<PayoutView>>;
  applyWithdrawalWebhook(delivery: Delivery<Withdrawal>): Promise<DeliveryOutcome>;
}

/** The binding that reaches these objects (part of `Env`; taken alone by who calls them). */
export interface PayoutsBinding {
  PAYOUTS: DurableObjectNamespace<PayoutRpc>;
}
