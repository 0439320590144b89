/**
 * @module
 * Whether the terms a wallet is about to sign (the route's 402, `accepts[0]`) are the ones the
 * "Pay from your wallet" button showed (the snapshot's `x402` offer): the same network, the
 * offer's exact amount in base units, and this project's USDC on that network. The widget signs
 * only then: a shopper never authorizes something else than what they saw.
 */
import type { X402Offer } from "../../../packages/contract/src/http-api.ts";
import { toBaseUnits } from "../money/units.ts";
import { usdcOn } from "./networks.ts";
import type { PaymentRequirements } from "./protocol.ts";

/**
 * True when `accepted` pays exactly `offer` (compared as integers, never floats).
 *
 * @example
 * sameTerms(
 *   { network: "eip155:84532", amount: "49900000", asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e" },
 *   { network: "eip155:84532", amount: "49.900000", decimals: 6 },
 * ); // true
 */
export function sameTerms(
  accepted: Pick<PaymentRequirements, "network" | "amount" | "asset">,
  offer: Pick<X402Offer, "network" | "amount" | "decimals"> | null | undefined,
): boolean {
  const asset = offer && usdcOn(offer.network);
  if (!asset || accepted.network !== offer.network) return false;
  try {
    return (
      /^[0-9]+$/.test(accepted.amount) &&
      BigInt(accepted.amount) === toBaseUnits(offer.amount, offer.decimals) &&
      accepted.asset.toLowerCase() === asset.address.toLowerCase()
    );
  } catch {
    return false;
  }
}
