/**
 * @module
 * Wallet deep links for the payment instructions shown in-page (and in the QR code):
 * - Bitcoin: BIP21 `bitcoin:<address>?amount=<BTC decimal>`;
 * - Ethereum / BNB Smart Chain native coin: EIP-681 `ethereum:<address>@<chainId>?value=<wei>`;
 * - ERC-20 / BEP-20 token: EIP-681
 *   `ethereum:<contract>@<chainId>/transfer?address=<address>&uint256=<base units>`
 *   (base units from the currency's own `decimalPlaces`: USDT is 6 on Ethereum, 18 on BSC);
 * - EVM networks of the chain-id table (`networks.ts`: Base, Polygon, …): EIP-681 as above;
 * - Tron and any network the table does not know: `null`. They have no standard payment URI, and
 *   a bare address in `href` is a *relative* URL (the storefront's 404): the widget offers copy
 *   and a QR code of the address instead.
 *
 * Invariants: a link is always absolute (`bitcoin:` / `ethereum:`) or null; a sandbox link never
 * names a main-network token contract (null instead); amounts are converted exactly (an amount with more places than the currency has
 * throws rather than rounds); addresses are checked against a strict charset so nothing can
 * inject extra URI parameters; a zero amount omits the amount parameter (the wallet asks).
 */
import type { CryptoCurrency } from "../../../packages/contract/src/http-api.ts";
import { isDecimalString, isZero, toBaseUnits, toDecimal } from "../money/decimal.ts";
import { evmChainId, isMainnetToken, networkKind } from "./networks.ts";

/** Input of `walletUri`. */
export interface WalletUriInput {
  currency: Pick<
    CryptoCurrency,
    "code" | "network" | "tokenType" | "contractAddress" | "decimalPlaces"
  >;
  /** Destination address of the payment. */
  address: string;
  /** Amount in the currency's units, as a plain decimal string (e.g. `"0.00123"`). */
  amount: string;
  /** True for the service's sandbox: EVM links use test-network chain ids. */
  sandbox: boolean;
  /** Overrides the EVM chain id derived from network + sandbox (EVM networks only). */
  chainId?: number;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const PLAIN_ADDRESS = /^[A-Za-z0-9]{20,100}$/;

/**
 * The wallet deep link for paying `amount` of `currency` to `address`, or null when the network
 * has no standard payment URI. Throws `RangeError`/`TypeError` on an invalid address or amount.
 *
 * @example
 * walletUri({
 *   currency: { code: "BTC", network: "Bitcoin", tokenType: null, contractAddress: null, decimalPlaces: 8 },
 *   address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
 *   amount: "0.00123",
 *   sandbox: false,
 * }); // "bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.00123"
 */
export function walletUri(input: WalletUriInput): string | null {
  const { currency, address, amount, sandbox } = input;
  if (!isDecimalString(amount)) throw new TypeError("amount must be a plain decimal string");
  const kind = networkKind(currency.network);
  const zero = isZero(amount);
  const evmChain = evmChainId(currency.network, sandbox);

  if (evmChain !== null) {
    assertMatches(address, EVM_ADDRESS, "address");
    const chainId = input.chainId ?? evmChain;
    if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new RangeError("invalid chainId");
    // Exact conversion: throws when the amount has more places than the currency.
    const units = toBaseUnits(amount, currency.decimalPlaces).toString();
    if (currency.contractAddress) {
      assertMatches(currency.contractAddress, EVM_ADDRESS, "contractAddress");
      // A test-network chain id with a mainnet contract: a wallet ignoring the id pays for real.
      if (sandbox && isMainnetToken(currency.contractAddress)) return null;
      const base = `ethereum:${currency.contractAddress}@${chainId}/transfer?address=${address}`;
      return zero ? base : `${base}&uint256=${units}`;
    }
    return zero
      ? `ethereum:${address}@${chainId}`
      : `ethereum:${address}@${chainId}?value=${units}`;
  }

  if (kind === "bitcoin") {
    assertMatches(address, PLAIN_ADDRESS, "address");
    // BIP21 amounts are decimal BTC; check the places exactly instead of rounding.
    toBaseUnits(amount, currency.decimalPlaces);
    if (zero) return `bitcoin:${address}`;
    return `bitcoin:${address}?amount=${toDecimal(amount)}`;
  }
  // Tron has no widely supported payment URI; unknown networks get the same: copy and QR only.
  return null;
}

function assertMatches(value: string, pattern: RegExp, field: string): void {
  if (typeof value !== "string" || !pattern.test(value)) {
    throw new TypeError(`invalid ${field} for a wallet link`);
  }
}
