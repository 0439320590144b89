/**
 * @module
 * The refund-address check as an on-demand script (`/address.js`, built from `address.ts`):
 * only a shopper who under- or overpaid types an address, so the checksums stay out of the
 * script-tag bundle. Like `qr.js`, the script registers itself on a page global.
 *
 * Invariant: when the script cannot load, every address passes here; the worker checks the
 * address again, so a missing live check never lets a bad address through, it only comes later.
 */
import type { CryptoCurrency } from "../worker/api/contract.ts";
import type { AddressVerdict } from "./address.ts";
import { loadScriptOnce, pageGlobal } from "./assets.ts";

/** `checkAddress` from `address.ts`, as registered by `/address.js`. */
export type AddressCheck = (currency: CryptoCurrency, raw: string) => Promise<AddressVerdict>;

const slot = () => pageGlobal<{ check?: AddressCheck }>("__cryptoCheckoutAddress", () => ({}));

/** Makes the check available (what `/address.js` does when it loads). */
export function registerAddressCheck(check: AddressCheck): void {
  slot().check = check;
}

/**
 * Checks `raw` for `currency`, loading the check from `assetBase` first if needed.
 *
 * @example
 * await verifyAddress("https://pay.example.com", usdtTrc20, "TLa2f6…") // "ok"
 */
export async function verifyAddress(
  assetBase: string,
  currency: CryptoCurrency,
  raw: string,
): Promise<AddressVerdict> {
  if (!slot().check) await loadScriptOnce(`${assetBase.replace(/\/+$/, "")}/address.js`);
  return slot().check?.(currency, raw) ?? "ok";
}
