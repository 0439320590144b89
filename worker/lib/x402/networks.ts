/**
 * @module
 * The networks and tokens this project pays x402 in: USDC on Base (production) and on Base
 * Sepolia (sandbox), scheme `exact`. The token's EIP-712 domain differs between the two
 * (`USD Coin` on Base, `USDC` on Base Sepolia): a signature made with the wrong name does not
 * verify, so the domain travels in the requirements' `extra` and is never guessed.
 */

/** One x402 token on one network. */
export interface X402Asset {
  /** CAIP-2 network id. */
  network: string;
  /** EIP-155 chain id. */
  chainId: number;
  /** The network's name shoppers see. */
  chainName: string;
  /** The token contract (EIP-55). */
  address: string;
  symbol: "USDC";
  decimals: 6;
  /** The fiat currency one token stands for, 1:1. */
  fiat: "USD";
  /** EIP-712 domain name and version of the token's `transferWithAuthorization`. */
  eip712: { name: string; version: string };
  /** For `wallet_addEthereumChain`: a public RPC and the explorer. */
  rpcUrl: string;
  explorerUrl: string;
}

/** Base mainnet. */
export const BASE = "eip155:8453";
/** Base Sepolia (the sandbox). */
export const BASE_SEPOLIA = "eip155:84532";

// biome-ignore format: one token per entry reads as a table
export const X402_ASSETS: readonly X402Asset[] = [
  { network: BASE, chainId: 8453, chainName: "Base", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", symbol: "USDC", decimals: 6, fiat: "USD", eip712: { name: "USD Coin", version: "2" }, rpcUrl: "https://mainnet.base.org", explorerUrl: "https://basescan.org" },
  { network: BASE_SEPOLIA, chainId: 84_532, chainName: "Base Sepolia", address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", symbol: "USDC", decimals: 6, fiat: "USD", eip712: { name: "USDC", version: "2" }, rpcUrl: "https://sepolia.base.org", explorerUrl: "https://sepolia.basescan.org" },
];

/**
 * The USDC of a network, or null when this project pays none there.
 *
 * @example
 * usdcOn("eip155:84532")?.eip712.name; // "USDC"
 */
export function usdcOn(network: string): X402Asset | null {
  return X402_ASSETS.find((asset) => asset.network === network) ?? null;
}

/**
 * The EIP-155 chain id of a CAIP-2 `eip155:<id>` network, or null.
 *
 * @example
 * chainIdOf("eip155:8453"); // 8453
 */
export function chainIdOf(network: string): number | null {
  const match = /^eip155:([1-9][0-9]{0,15})$/.exec(network);
  return match ? Number(match[1]) : null;
}
