/**
 * @module
 * What the worker knows about a currency's network: the one name shoppers see for it, its
 * wallet-link family, and, for EVM networks, the EIP-155 chain ids (mainnet, test network).
 *
 * The service names networks inconsistently across sources (`BTC` vs `Bitcoin`, `BNB` vs
 * `BNB Smart Chain`), so names are matched case-insensitively against every known alias. The
 * service adds networks over time (Base in 2026): a name not in the table is an *unknown*
 * network, shown as the service wrote it and paid by copy and QR of the address only.
 * Sandbox mode means test networks only (Sepolia, BSC testnet, Base Sepolia…): a mainnet chain
 * id in a sandbox link could make a wallet send real funds to a test address.
 */

/** Link family of a network. `null` from `networkKind` means "unknown network". */
export type NetworkKind = "bitcoin" | "litecoin" | "dogecoin" | "ethereum" | "bsc" | "tron" | "evm";

/** One known network. */
interface Network {
  kind: NetworkKind;
  /** The name shoppers see: one per network, whatever alias the service used. */
  label: string;
  /** EIP-155 chain ids of an EVM network: mainnet, then its test network (sandbox mode). */
  chainIds?: readonly [mainnet: number, testnet: number];
}

// biome-ignore format: one network per line reads as a table
const NETWORKS: readonly (Network & { aliases: readonly string[] })[] = [
  { kind: "bitcoin", label: "Bitcoin", aliases: ["btc", "bitcoin"] },
  { kind: "litecoin", label: "Litecoin", aliases: ["ltc", "litecoin"] },
  { kind: "dogecoin", label: "Dogecoin", aliases: ["doge", "dogecoin"] },
  { kind: "ethereum", label: "Ethereum", chainIds: [1, 11_155_111], aliases: ["ethereum", "eth", "erc20"] },
  { kind: "bsc", label: "BNB Smart Chain", chainIds: [56, 97], aliases: ["bnb", "bsc", "bnb smart chain", "bnb chain", "binance smart chain", "bep20"] },
  { kind: "tron", label: "TRON", aliases: ["tron", "trx", "trc20"] },
  { kind: "evm", label: "Base", chainIds: [8453, 84_532], aliases: ["base"] },
  { kind: "evm", label: "Polygon", chainIds: [137, 80_002], aliases: ["polygon", "matic", "pol"] },
  { kind: "evm", label: "Arbitrum One", chainIds: [42_161, 421_614], aliases: ["arbitrum", "arbitrum one", "arb"] },
  { kind: "evm", label: "OP Mainnet", chainIds: [10, 11_155_420], aliases: ["optimism", "op mainnet", "op"] },
  { kind: "evm", label: "Avalanche C-Chain", chainIds: [43_114, 43_113], aliases: ["avalanche", "avax", "avalanche c-chain", "avaxc"] },
];

const BY_ALIAS = new Map(NETWORKS.flatMap((n) => n.aliases.map((alias) => [alias, n] as const)));

const normalise = (network: string) => network.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * Main-network token contracts a sandbox link must never carry: a wallet that ignores the
 * chain id would move real USDT/USDC. Lower case.
 */
const MAINNET_TOKENS = new Set([
  "0xdac17f958d2ee523a2206206994597c13d831ec7", // USDT, Ethereum
  "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", // USDC, Ethereum
  "0x55d398326f99059ff775485246999027b3197955", // USDT, BNB Smart Chain
  "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d", // USDC, BNB Smart Chain
  "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", // USDC, Base
]);

/**
 * The link family of a network name, or null when unknown.
 * @example networkKind("BNB Smart Chain"); // "bsc"
 */
export function networkKind(network: string): NetworkKind | null {
  return BY_ALIAS.get(normalise(network))?.kind ?? null;
}

/**
 * True for the EVM networks of the table (their addresses carry EIP-55 checksums).
 * @example isEvmNetwork("Base"); // true
 */
export function isEvmNetwork(network: string): boolean {
  return BY_ALIAS.get(normalise(network))?.chainIds !== undefined;
}

/**
 * The one name shoppers see for a network; an unknown network keeps the service's own name.
 * @example networkLabel("BNB"); // "BNB Smart Chain"
 * @example networkLabel("Solana"); // "Solana"
 */
export function networkLabel(network: string): string {
  return BY_ALIAS.get(normalise(network))?.label ?? network.trim();
}

/**
 * EIP-155 chain id of an EVM network: mainnet, or its test network in sandbox mode; null for a
 * network that is not an EVM network of the table.
 * @example evmChainId("BNB", true); // 97
 * @example evmChainId("Base", false); // 8453
 */
export function evmChainId(network: string, sandbox: boolean): number | null {
  const ids = BY_ALIAS.get(normalise(network))?.chainIds;
  return ids ? ids[sandbox ? 1 : 0] : null;
}

/**
 * True for a known main-network token contract (never linked in sandbox mode).
 * @example isMainnetToken("0xdAC17F958D2ee523a2206206994597C13D831ec7"); // true
 */
export function isMainnetToken(contract: string): boolean {
  return MAINNET_TOKENS.has(contract.toLowerCase());
}
