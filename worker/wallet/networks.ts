/**
 * @module
 * Which wallet-link family a currency's network belongs to, and the EVM chain ids.
 *
 * The service names networks inconsistently across sources (`BTC` vs `Bitcoin`, `BNB` vs
 * `BNB Smart Chain`), so names are matched case-insensitively against every known alias.
 * Sandbox mode means test networks only (Sepolia, BSC testnet): a mainnet chain id in a
 * sandbox link could make a wallet send real funds to a test address.
 */

/** Link family of a network. `null` from `networkKind` means "unknown network". */
export type NetworkKind = "bitcoin" | "litecoin" | "dogecoin" | "ethereum" | "bsc" | "tron";

const ALIASES: Record<string, NetworkKind> = {
  btc: "bitcoin",
  bitcoin: "bitcoin",
  ltc: "litecoin",
  litecoin: "litecoin",
  doge: "dogecoin",
  dogecoin: "dogecoin",
  ethereum: "ethereum",
  eth: "ethereum",
  erc20: "ethereum",
  bnb: "bsc",
  bsc: "bsc",
  "bnb smart chain": "bsc",
  "bnb chain": "bsc",
  "binance smart chain": "bsc",
  bep20: "bsc",
  tron: "tron",
  trx: "tron",
  trc20: "tron",
};

/**
 * The link family of a network name, or null when unknown.
 * @example networkKind("BNB Smart Chain"); // "bsc"
 */
export function networkKind(network: string): NetworkKind | null {
  return ALIASES[network.trim().toLowerCase().replace(/\s+/g, " ")] ?? null;
}

/**
 * EIP-155 chain id of an EVM network: mainnet, or its test network in sandbox mode.
 * @example evmChainId("bsc", true); // 97
 */
export function evmChainId(kind: "ethereum" | "bsc", sandbox: boolean): number {
  if (kind === "ethereum") return sandbox ? 11_155_111 : 1;
  return sandbox ? 97 : 56;
}
