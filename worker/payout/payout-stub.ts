/**
 * @module
 * How the worker reaches a payout object: `payout:<orderId>`, one object per orderId.
 */
import type { PayoutsBinding } from "./payout-rpc.ts";

/**
 * The payout of an orderId: one object per orderId.
 *
 * @example
 * const view = unwrap(await payoutStub(env, "po-1001").view());
 */
export function payoutStub(env: PayoutsBinding, orderId: string) {
  return env.PAYOUTS.get(env.PAYOUTS.idFromName(`payout:${orderId}`));
}
