/**
 * @module
 * One x402 payment from the shopper's wallet, start to end: connect, ask the worker for the
 * exact terms (the protocol's own 402), put the wallet on the terms' network, sign the EIP-3009
 * authorization once (no gas: the facilitator submits it), and send it back. The worker's
 * answer is the checkout's snapshot, whose `x402Payment` the live status then follows.
 *
 * Invariant: the wallet signs exactly the worker's terms (`accepts[0]`): amount, recipient,
 * token and network come from the 402, never from the widget's own display of the offer; and
 * it signs them only when they are what the button showed (`sameTerms`: network, amount, USDC),
 * else nothing is signed and the shopper is told.
 */
import type { CheckoutSnapshot, X402Offer } from "../../packages/contract/src/http-api.ts";
import { encodeBase64Json } from "../../worker/lib/x402/base64-json.ts";
import type { PaymentRequired } from "../../worker/lib/x402/protocol.ts";
import { authorizationTypedData } from "../../worker/lib/x402/typed-data.ts";
import { newAuthorization, signedPayment } from "../../worker/lib/x402/wallet-authorization.ts";
import { sameTerms } from "../../worker/lib/x402/wallet-terms.ts";
import { onChain } from "./chain.ts";
import { ask, type Eip1193 } from "./provider.ts";
import { Stop } from "./stop.ts";
import { postX402 } from "./x402-http.ts";

/** Where the flow is: waiting on the wallet, or sending the signed payment to the worker. */
export type PayStep = "wallet" | "send";

/**
 * Pays checkout `id` at `base` from `provider`, as `offer` (the button's) said; `now` is the
 * worker's clock (ms), `step` hears where the flow is. Throws only `Stop`s.
 *
 * @example
 * const snapshot = await payFromWallet(api.base, s.id, s.x402, wallet.provider, clock.now, setStep);
 */
export async function payFromWallet(
  base: string,
  id: string,
  offer: X402Offer | null | undefined,
  provider: Eip1193,
  now: () => number,
  step: (at: PayStep) => void,
): Promise<CheckoutSnapshot> {
  step("wallet");
  const [from] = (await ask(provider, "eth_requestAccounts")) as string[];
  if (!from) throw new Stop("walletFailed");
  const url = `${base}/v1/checkouts/${encodeURIComponent(id)}/x402`;
  const required = (await postX402(url)) as PaymentRequired;
  const accepted = required.accepts[0]!;
  // The one scheme a browser wallet signs here: `exact` (EIP-3009), on an EVM chain.
  if (accepted.scheme !== "exact") throw new Stop("walletNotOffered");
  // Before the wallet is asked anything more: never sign other terms than the button's.
  if (!sameTerms(accepted, offer))
    throw new Stop("walletTerms", {
      reason: `${accepted.amount} ${accepted.asset} ${accepted.network}`,
    });
  await onChain(provider, accepted.network);
  let data: ReturnType<typeof authorizationTypedData>;
  const random = crypto.getRandomValues(new Uint8Array(32));
  const authorization = newAuthorization(accepted, from, Math.floor(now() / 1000), random);
  try {
    data = authorizationTypedData(accepted, authorization);
  } catch {
    // Terms without an EVM network or token domain: nothing this wallet can sign.
    throw new Stop("walletInvalid");
  }
  const signature = (await ask(provider, "eth_signTypedData_v4", [
    from,
    JSON.stringify(data),
  ])) as string;
  step("send");
  const header = encodeBase64Json(signedPayment(required, accepted, { signature, authorization }));
  return (await postX402(url, header)) as CheckoutSnapshot;
}
