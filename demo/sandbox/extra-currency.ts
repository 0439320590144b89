/**
 * @module extra-currency
 * `SANDBOX_EXTRA_CURRENCY`: one more crypto currency, on a network of your choice, so that a
 * client can be tried against a network it does not know. The service adds networks over time
 * (its SDK added Base in 2026; the sandbox now serves Base itself); a checkout must list such a currency with its name and network
 * and let the payer pay it by copying the address or scanning its QR code.
 *
 * Spec: `<CODE>:<Network>[:evm]`, e.g. `USDC_ARB:Arbitrum:evm` or `USDT_TON:TON`.
 * - `evm`: addresses are `0x` + 40 hex; a `USDT_`/`USDC_` code is a token with a test contract
 *   (the USDC of Base Sepolia), otherwise the network's native coin.
 * - otherwise: addresses are 44-character base58 strings, as on Solana or TON-like chains.
 * The currency is priced as a USD stablecoin (1 USD), with 6 decimal places and small minimums,
 * and pays its own network fees. Invalid specs are an error naming the variable.
 */
import type { CryptoCurrency } from "./currencies.ts";

/** Address mask of the extra currency when it is not EVM: base58, 32 to 44 characters. */
export const BASE58_MASK = "^[1-9A-HJ-NP-Za-km-z]{32,44}$";
const EVM_MASK = "^0x[a-fA-F0-9]{40}$";
/** USDC on Base Sepolia: the test contract an EVM token extra currency uses. */
const EVM_TEST_TOKEN = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

const SPEC = /^([A-Z0-9]{2,12}(?:_[A-Z0-9]{2,12})?):([A-Za-z0-9][A-Za-z0-9 -]{0,29})(?::(evm))?$/;

/**
 * The extra currency a spec describes. Throws `Error` naming `SANDBOX_EXTRA_CURRENCY` for a
 * malformed spec or a code the sandbox already serves.
 * @example
 * parseExtraCurrency("USDC_ARB:Arbitrum:evm").contractAddress; // "0x036CbD53842c5426634e7929541eC2318f3dCF7e"
 * parseExtraCurrency("USDT_TON:TON").addressMask; // "^[1-9A-HJ-NP-Za-km-z]{32,44}$"
 */
export function parseExtraCurrency(spec: string, taken: readonly string[] = []): CryptoCurrency {
  const m = SPEC.exec(spec.trim());
  if (!m) {
    throw new Error(
      `SANDBOX_EXTRA_CURRENCY must look like CODE:Network[:evm] (e.g. USDC_ARB:Arbitrum:evm), got ${JSON.stringify(spec)}`,
    );
  }
  const [, code = "", network = "", evm] = m;
  if (taken.includes(code)) {
    throw new Error(`SANDBOX_EXTRA_CURRENCY: ${code} is already one of the sandbox's currencies`);
  }
  const token = /^(USDT|USDC)_/.test(code);
  const name = token
    ? `${code.startsWith("USDT") ? "Tether USD" : "USD Coin"} (${network})`
    : `${code} (${network})`;
  return {
    code,
    name,
    network,
    baseCoin: code,
    tokenType: token && evm ? "erc20" : null,
    decimalPlaces: 6,
    minDepositAmount: "1",
    depositNetworkFee: "0.1",
    minWithdrawalAmount: "2",
    contractAddress: token && evm ? EVM_TEST_TOKEN : null,
    addressMask: evm ? EVM_MASK : BASE58_MASK,
    withdrawalFeeNative: "0.2",
    stablecoin: true,
  };
}
