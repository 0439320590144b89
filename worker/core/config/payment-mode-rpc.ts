/**
 * @module
 * What the worker may ask the deployment's payment-mode record (`PaymentModeObject`) through
 * its stub, without importing the class (`Env` names `PAYMENT_MODES` by it).
 */
import type { ModeDecision } from "./mode-decision.ts";

/** The payment-mode record's RPC methods (see `payment-mode-object.ts`). */
export interface PaymentModeRpc extends Rpc.DurableObjectBranded {
  decide(now: number): Promise<ModeDecision>;
  record(decision: ModeDecision): Promise<void>;
}
