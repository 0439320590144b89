/**
 * @module
 * Tells the account's index which checkout an x402 transaction paid (`core/account/x402-routes.ts`),
 * so the service's `x402.payment.*` webhooks for it reach this order: as soon as the settle
 * answer names the transaction, and again when the order learns it by reading the settlements
 * (an answer lost, an object restarted). Idempotent; a failure is logged, never thrown: the
 * order reads the outcome itself (`follow-x402.ts`).
 */
import { accountKey } from "../../core/account/account-key.ts";
import { accountStub } from "../../core/objects/stubs.ts";
import type { OrderHost } from "../order-host.ts";

/**
 * Records `transaction` → `checkoutId` at the account's index.
 *
 * @example
 * await routeTransaction(host, settled.transaction, order.checkoutId);
 */
export async function routeTransaction(
  host: OrderHost,
  transaction: string,
  checkoutId: string,
): Promise<void> {
  try {
    await accountStub(host.env, accountKey(host.config())).routeX402(transaction, checkoutId);
  } catch (error) {
    host.logger().warn("x402.route_failed", { error: String(error) });
  }
}
