/**
 * @module currencies
 * The sandbox's currency catalogue: the eleven crypto currencies of the service (with network,
 * precision, minimums, commission, token contract and address mask), an optional extra one on a
 * further network (`SANDBOX_EXTRA_CURRENCY`, see `extra-currency.ts`), and the fiat settlement
 * currencies. Amounts are exact decimal strings.
 *
 * Token contracts are the test networks' (Sepolia, BSC testnet, Tron Nile, Base Sepolia), as the service's
 * sandbox serves test networks only: a wallet link pairing a test chain id with a contract then
 * calls the right contract, and a wallet that ignores the chain id finds no mainnet token there.
 */

/** One crypto currency as the sandbox configures it. */
export interface CryptoCurrency {
  code: string;
  name: string;
  network: string;
  /** The network's base coin: pays the on-chain fee. */
  baseCoin: string;
  tokenType: "erc20" | "bep20" | "trc20" | null;
  decimalPlaces: number;
  minDepositAmount: string;
  /** Deposit network fee in this currency, deducted from deposits; null = no quote. */
  depositNetworkFee: string | null;
  minWithdrawalAmount: string;
  contractAddress: string | null;
  addressMask: string;
  /** On-chain fee of a withdrawal, in the base coin. */
  withdrawalFeeNative: string;
  stablecoin: boolean;
}

/** One fiat settlement currency. */
export interface FiatCurrency {
  code: string;
  name: string;
  decimalPlaces: number;
  minInvoiceAmount: string;
}

const BTC_MASK = "^(?:(?:tb1|bc1)[02-9ac-hj-np-z]{11,71}|[13mn2][a-km-zA-HJ-NP-Z1-9]{25,34})$";
const EVM_MASK = "^0x[a-fA-F0-9]{40}$";
const TRON_MASK = "^T[A-Za-z1-9]{33}$";

type Token = CryptoCurrency["tokenType"];

/** Positional constructor keeps the table below readable: one currency per line. */
function row(
  code: string,
  name: string,
  net: [network: string, baseCoin: string, tokenType: Token, contract: string | null],
  decimalPlaces: number,
  amounts: [minDeposit: string, depositFee: string | null, minWithdrawal: string],
  addressMask: string,
  withdrawalFeeNative: string,
): CryptoCurrency {
  const [network, baseCoin, tokenType, contractAddress] = net;
  const [minDepositAmount, depositNetworkFee, minWithdrawalAmount] = amounts;
  const stablecoin = code.startsWith("USDT_") || code.startsWith("USDC_");
  return {
    ...{ code, name, network, baseCoin, tokenType, decimalPlaces, minDepositAmount },
    ...{ depositNetworkFee, minWithdrawalAmount, contractAddress },
    ...{ addressMask, withdrawalFeeNative, stablecoin },
  };
}

/** Sepolia test USDT (6 decimals). */
const USDT_ERC20 = "0xaA8E23Fb1079EA71e0a56F48a2aA51851D8433D0";
/** Circle's Sepolia USDC. */
const USDC_ERC20 = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238";
/** BSC testnet USDT. */
const USDT_BEP20 = "0x337610d27c682E347C9cD60BD4b3b107C9d34dDd";
/** BSC testnet USDC. */
const USDC_BEP20 = "0x64544969ed7EBf5f083679233325356EbE738930";
/** Tron Nile testnet USDT. */
const USDT_TRC20 = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
/** Circle's Base Sepolia USDC: also the one token the sandbox's x402 facilitator takes. */
export const USDC_BASE_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

/**
 * All crypto currencies, in the service's order, then the extra one when configured (the same
 * array object throughout: `useExtraCurrency` changes its tail).
 */
// biome-ignore format: one currency per line reads as a table
const ALL: CryptoCurrency[] = [
  row("BTC", "Bitcoin", ["BTC", "BTC", null, null], 8, ["0.0001", "0.00001", "0.0005"], BTC_MASK, "0.00002"),
  row("ETH", "Ethereum", ["Ethereum", "ETH", null, null], 18, ["0.002", "0.0002", "0.005"], EVM_MASK, "0.0004"),
  row("USDT_ERC20", "Tether USD (ERC-20)", ["Ethereum", "ETH", "erc20", USDT_ERC20], 6, ["10", "1.5", "20"], EVM_MASK, "0.0012"),
  row("USDC_ERC20", "USD Coin (ERC-20)", ["Ethereum", "ETH", "erc20", USDC_ERC20], 6, ["10", "1.5", "20"], EVM_MASK, "0.0012"),
  row("BNB", "BNB", ["BNB", "BNB", null, null], 18, ["0.01", "0.0001", "0.02"], EVM_MASK, "0.00005"),
  row("USDT_BEP20", "Tether USD (BEP-20)", ["BNB", "BNB", "bep20", USDT_BEP20], 18, ["1", "0.05", "5"], EVM_MASK, "0.0001"),
  row("USDC_BEP20", "USD Coin (BEP-20)", ["BNB", "BNB", "bep20", USDC_BEP20], 18, ["1", "0.05", "5"], EVM_MASK, "0.0001"),
  row("TRX", "TRON", ["Tron", "TRX", null, null], 6, ["10", "1", "20"], TRON_MASK, "1.1"),
  row("USDT_TRC20", "Tether USD (TRC-20)", ["Tron", "TRX", "trc20", USDT_TRC20], 6, ["5", "1", "10"], TRON_MASK, "13.5"),
  row("ETH_BASE", "Ethereum (Base)", ["Base", "ETH_BASE", null, null], 18, ["0.0005", "0.00001", "0.001"], EVM_MASK, "0.00001"),
  row("USDC_BASE", "USD Coin (Base)", ["Base", "ETH_BASE", "erc20", USDC_BASE_SEPOLIA], 6, ["1", "0.05", "2"], EVM_MASK, "0.00002"),
];
const BUILT_IN = ALL.length;

/**
 * The tenant's effective deposit commission (a fraction: 0.005 = 0.5 %), the same on every
 * currency: the service documents one effective rate per tenant (its override, else the
 * platform default), and `GET /currencies` repeats it on each row. The sandbox's tenant has an
 * override of 0.5 %.
 */
export const TENANT_DEPOSIT_COMMISSION = "0.005";

/**
 * The crypto currencies the sandbox serves (the built-in eleven, then the extra one if any).
 * Base comes last, so the stablecoin auto-conversion (first in catalogue order) is unchanged.
 */
export const CRYPTO_CURRENCIES: readonly CryptoCurrency[] = ALL;

/**
 * Sets (or, with null, removes) the extra currency. Process-wide, like the catalogue itself:
 * `startSandbox` calls it with its `extraCurrency` option.
 * @example
 * useExtraCurrency(parseExtraCurrency("USDC_ARB:Arbitrum:evm"));
 */
export function useExtraCurrency(extra: CryptoCurrency | null): void {
  ALL.length = BUILT_IN;
  if (extra) ALL.push(extra);
}

/** Fiat settlement currencies (JPY has no minor unit). */
export const FIAT_CURRENCIES: readonly FiatCurrency[] = [
  { code: "USD", name: "US Dollar", decimalPlaces: 2, minInvoiceAmount: "1" },
  { code: "EUR", name: "Euro", decimalPlaces: 2, minInvoiceAmount: "1" },
  { code: "GBP", name: "Pound Sterling", decimalPlaces: 2, minInvoiceAmount: "1" },
  { code: "JPY", name: "Japanese Yen", decimalPlaces: 0, minInvoiceAmount: "150" },
  { code: "CHF", name: "Swiss Franc", decimalPlaces: 2, minInvoiceAmount: "1" },
];

/**
 * Looks up a crypto currency by exact code.
 * @example
 * cryptoCurrency("USDT_TRC20")?.network; // "Tron"
 */
export function cryptoCurrency(code: unknown): CryptoCurrency | undefined {
  return CRYPTO_CURRENCIES.find((c) => c.code === code);
}

/**
 * Looks up a fiat currency by exact code.
 * @example
 * fiatCurrency("JPY")?.decimalPlaces; // 0
 */
export function fiatCurrency(code: unknown): FiatCurrency | undefined {
  return FIAT_CURRENCIES.find((c) => c.code === code);
}
