/**
 * @module
 * A payout request checked against the live currency list and quoted: the merchant's payouts
 * (`edge/routes/payouts.ts`) and the order refunds (`payout/refunds/refund-order.ts`) go through this one
 * path, so a refund meets exactly the currency, address and amount rules of a payout.
 *
 * Invariant: nothing reaches the payout object (and so the service) before the currency is
 * known, the address passes the shared address rules and the amount the currency's rules.
 */

import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import { cryptoEntry } from "../core/catalog/live-entry.ts";
import type { Config } from "../core/config/config.ts";
import { requireAddress } from "../lib/addresses/address-guard.ts";
import type { Logger } from "../lib/log.ts";
import { unwrap } from "../lib/outcome/outcome.ts";
import type { OrdersBinding } from "../order/order-rpc.ts";
import type { PayoutsBinding } from "./payout-rpc.ts";
import { payoutStub } from "./payout-stub.ts";
import type { PayoutRequest } from "./store.ts";
import { checkPayoutAmount } from "./validate.ts";

/** What a quote needs from the request it serves. */
export interface QuoteContext {
  env: OrdersBinding & PayoutsBinding;
  config: Config;
  log: Logger;
}

/**
 * Validates against the live currency list, then quotes (same orderId → same payout). Throws
 * the `ApiError` of the first rule broken or of the payout object's refusal.
 *
 * @example
 * const { created, view } = await quotePayout({ env, config, log }, {
 *   orderId: "po-1", kind: "payout", invoiceNumber: null,
 *   cryptoCurrencyCode: "USDT_TRC20", address: "T…", amount: "25" });
 */
export async function quotePayout(
  at: QuoteContext,
  input: Omit<PayoutRequest, "network">,
): Promise<{ created: boolean; view: PayoutView }> {
  const currency = await cryptoEntry(at.config, at.log, input.cryptoCurrencyCode, "payouts");
  const address = await requireAddress(currency, input.address, at.config.SANDBOX);
  const amount = checkPayoutAmount(currency, input.amount);
  const request: PayoutRequest = { ...input, address, amount, network: currency.network };
  return unwrap(await payoutStub(at.env, input.orderId).quote(request));
}
