/**
 * @module
 * Puts the wallet on the network of the payment before it signs or sends: the signature names
 * the chain (EIP-712 domain), a transaction goes to whatever chain the wallet is on, and
 * wallets refuse, or warn about, typed data for a chain they are not on.
 * A wallet that does not know the chain (4902) is given it (`wallet_addEthereumChain`) where
 * this project knows the chain's RPC (Base, Base Sepolia), then asked to switch again; for any
 * other chain the shopper is told the wallet lacks the network (adding it is theirs to do: a
 * public RPC we would pick is not ours to vouch for). A wallet that will not switch (the
 * shopper said no, or adding failed) stops the flow with the network's name, so the shopper
 * knows what to change.
 */
import { chainIdOf, usdcOn } from "../../worker/lib/x402/networks.ts";
import { addChainParameter } from "../../worker/lib/x402/wallet-chain.ts";
import { ask, codeOf, type Eip1193 } from "./provider.ts";
import { Stop } from "./stop.ts";

/**
 * Switches `provider` to `network` (CAIP-2, `eip155:<id>`) unless it is there already; `name`
 * is what the shopper reads in a stop.
 *
 * @example
 * await onChain(provider, "eip155:84532");
 * await onChain(provider, "eip155:11155111", "Ethereum (11155111)");
 */
export async function onChain(
  provider: Eip1193,
  network: string,
  name = usdcOn(network)?.chainName ?? network,
): Promise<void> {
  const id = chainIdOf(network);
  const now = (await ask(provider, "eth_chainId")) as string;
  if (id === null || Number(now) === id) return;
  const chainId = `0x${id.toString(16)}`;
  const switchTo = () =>
    provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] });
  const add = addChainParameter(network);
  try {
    await switchTo();
  } catch (e) {
    const unknown = codeOf(e) === 4902;
    try {
      if (!unknown || !add) throw e;
      await provider.request({ method: "wallet_addEthereumChain", params: [add] });
      await switchTo();
    } catch {
      throw new Stop(unknown && !add ? "walletNoChain" : "walletWrongChain", { network: name });
    }
  }
}
