/**
 * @module
 * Paying the invoice's own address from the shopper's wallet (not x402): connect, put the
 * wallet on the invoice's chain, send the one transaction `walletTransfer` built (the exact
 * amount still due, native coin or token `transfer`). The worker learns of the payment as of
 * any other, from the service's webhooks: nothing is posted to it here.
 *
 * Invariant: the transaction comes whole from `walletTransfer` (recipient, amount in base
 * units, contract), built from the instructions the panel shows; the wallet only adds `from`.
 */
import type { WalletTransfer } from "../../worker/lib/wallet/wallet-transfer.ts";
import { onChain } from "./chain.ts";
import { ask, type Eip1193 } from "./provider.ts";
import { Stop } from "./stop.ts";

/**
 * Sends `transfer` from `provider`; `name` is the network's name for a stop. Resolves with the
 * transaction hash; throws only `Stop`s.
 *
 * @example
 * const hash = await payInvoice(wallet.provider, walletTransfer(currency, p, s.sandbox)!, "Ethereum");
 */
export async function payInvoice(
  provider: Eip1193,
  transfer: WalletTransfer,
  name: string,
): Promise<string> {
  const [from] = (await ask(provider, "eth_requestAccounts")) as string[];
  if (!from) throw new Stop("walletFailed");
  const { chainId, ...tx } = transfer;
  await onChain(provider, `eip155:${chainId}`, name);
  return (await ask(provider, "eth_sendTransaction", [{ from, ...tx }])) as string;
}
