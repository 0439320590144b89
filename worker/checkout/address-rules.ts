/**
 * @module
 * Server-side address check with the service's `addressMask`, plus the EIP-55 checksum on
 * Ethereum and BNB Smart Chain (the widget checks too, but the worker never trusts the browser).
 * Used for shoppers' refund addresses and merchants' payout addresses alike.
 */
import type { CryptoCurrency } from "../api/contract.ts";
import { hasEip55Typo } from "../crypto/eip55.ts";
import { ApiError } from "../http/api-error.ts";
import { isEvmNetwork } from "../wallet/networks.ts";

/**
 * Throws 400 `invalid_address` when the address does not match the currency's mask, or when
 * an EVM address is written in mixed case that is not its EIP-55 checksum (a typo; all-lower
 * and all-upper case carry no checksum and pass). A currency without a mask (or with a mask
 * that is not a valid regex) accepts any non-blank address of sane characters.
 *
 * The checksum is chosen by the currency's network, not by the address's look: only
 * Ethereum and BNB Smart Chain are known to use EIP-55 (RSK, for one, uses EIP-1191 instead).
 *
 * @example
 * checkAddress(usdtTrc20, "TXYZ…");
 * checkAddress(eth, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"); // throws: last letter's case
 */
export function checkAddress(currency: CryptoCurrency, address: string): void {
  let ok = /^[A-Za-z0-9:]{10,128}$/.test(address);
  if (ok && currency.addressMask) {
    try {
      ok = new RegExp(currency.addressMask).test(address);
    } catch {
      // An unusable mask from upstream is not the shopper's fault: fall back to the shape check.
    }
  }
  if (!ok) {
    throw new ApiError(
      400,
      "invalid_address",
      `This is not a valid ${currency.code} address on ${currency.network}.`,
    );
  }
  if (isEvmNetwork(currency.network) && hasEip55Typo(address)) {
    throw new ApiError(
      400,
      "invalid_address",
      `This ${currency.code} address has a typo: its EIP-55 checksum (the mix of upper- and lower-case letters) does not match.`,
    );
  }
}
