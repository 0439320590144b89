/**
 * @module
 * Puts the wallet on the network of the payment before it signs: the signature names the chain
 * (EIP-712 domain) and wallets refuse, or warn about, typed data for a chain they are not on.
 * A wallet that does not know the chain (4902) is given it (`wallet_addEthereumChain`), then
 * asked to switch again. A wallet that will not switch (the shopper said no, or adding failed)
 * stops the flow with the network's name, so the shopper knows what to change.
 */
import { usdcOn } from "../../worker/lib/x402/networks.ts";
import { addChainParameter, hexChainId } from "../../worker/lib/x402/wallet-chain.ts";
import { ask, codeOf, type Eip1193 } from "./provider.ts";
import { Stop } from "./stop.ts";

/**
 * Switches `provider` to `network` (CAIP-2) unless it is there already.
 *
 * @example
 * await onChain(provider, "eip155:84532");
 */
export async function onChain(provider: Eip1193, network: string): Promise<void> {
  const chainId = hexChainId(network);
  const now = (await ask(provider, "eth_chainId")) as string;
  if (chainId === null || Number(now) === Number(chainId)) return;
  const switchTo = () =>
    provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] });
  try {
    await switchTo();
  } catch (e) {
    try {
      if (codeOf(e) !== 4902) throw e;
      await provider.request({
        method: "wallet_addEthereumChain",
        params: [addChainParameter(network)],
      });
      await switchTo();
    } catch {
      throw new Stop("walletWrongChain", { network: usdcOn(network)?.chainName ?? network });
    }
  }
}
