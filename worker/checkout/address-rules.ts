/**
 * @module
 * Server-side address check with the service's `addressMask` (the widget checks too, but the
 * worker never trusts the browser).
 */
import type { CryptoCurrency } from "../api/contract.ts";
import { ApiError } from "../http/api-error.ts";

/**
 * Throws 400 `invalid_address` when the address does not match the currency's mask.
 * A currency without a mask (or with a mask that is not a valid regex) accepts any
 * non-blank address of sane characters.
 *
 * @example
 * checkAddress(usdtTrc20, "TXYZ…");
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
}
