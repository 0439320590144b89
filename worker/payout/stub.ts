/**
 * @module
 * From a payout orderId to its Durable Object: one object per orderId, named `payout:<orderId>`.
 */
import type { Env } from "../config/env.ts";

/**
 * The durable object of a payout orderId.
 *
 * @example
 * const view = unwrap(await payoutStub(env, "po-1001").view());
 */
export function payoutStub(env: Env, orderId: string) {
  return env.PAYOUTS.get(env.PAYOUTS.idFromName(`payout:${orderId}`));
}
