/**
 * @module
 * What a browser wallet needs to pay on an x402 network: the chain id as EIP-1193 spells it
 * (`0x` hex) and, for a wallet that does not know the chain yet, the
 * `wallet_addEthereumChain` parameters (EIP-3085) of this project's networks (`networks.ts`).
 */
import { chainIdOf, usdcOn } from "./networks.ts";

/** EIP-3085's `AddEthereumChainParameter`. */
export interface AddChainParameter {
  chainId: string;
  chainName: string;
  rpcUrls: string[];
  blockExplorerUrls: string[];
  nativeCurrency: { name: string; symbol: string; decimals: number };
}

/**
 * The `0x` hex chain id of a CAIP-2 network, or null when it is not `eip155:<id>`.
 *
 * @example
 * hexChainId("eip155:84532"); // "0x14a34"
 */
export function hexChainId(network: string): string | null {
  const id = chainIdOf(network);
  return id === null ? null : `0x${id.toString(16)}`;
}

/**
 * `wallet_addEthereumChain`'s parameter for a network this project pays on, or null.
 *
 * @example
 * addChainParameter("eip155:84532")?.rpcUrls; // ["https://sepolia.base.org"]
 */
export function addChainParameter(network: string): AddChainParameter | null {
  const asset = usdcOn(network);
  if (!asset) return null;
  return {
    chainId: `0x${asset.chainId.toString(16)}`,
    chainName: asset.chainName,
    rpcUrls: [asset.rpcUrl],
    blockExplorerUrls: [asset.explorerUrl],
    // Base and Base Sepolia pay gas in ETH (the payer pays none here; wallets require it).
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  };
}
