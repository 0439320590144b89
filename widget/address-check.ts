/**
 * @module
 * The refund-address check as an on-demand script (`/address.js`, built from the worker's own
 * `worker/lib/addresses/address-rules.ts`, so the widget and the worker judge an address alike):
 * only a shopper who under- or overpaid types an address, so the checksums stay out of the
 * script-tag bundle. Like `qr.js`, the script registers itself on a page global.
 *
 * Invariant: when the script cannot load or cannot run (no WebCrypto on a plain-http page),
 * every address passes here; the worker checks the address again, so a missing live check
 * never lets a bad address through, it only comes later.
 */

import type { CryptoCurrency } from "../packages/contract/src/http-api.ts";
import type { AddressVerdict } from "../worker/lib/addresses/address-rules.ts";
import { loadScriptOnce, pageGlobal } from "./assets.ts";

export type { AddressVerdict };

/** `checkAddress` from `address-rules.ts`, as registered by `/address.js`. */
export type AddressCheck = (
  currency: CryptoCurrency,
  raw: string,
  sandbox: boolean,
) => Promise<AddressVerdict>;

const slot = () => pageGlobal<{ check?: AddressCheck }>("__cryptoCheckoutAddress", () => ({}));

/** Makes the check available (what `/address.js` does when it loads). */
export function registerAddressCheck(check: AddressCheck): void {
  slot().check = check;
}

/**
 * Checks `raw` for `currency` (test networks when `sandbox`), loading the check from
 * `assetBase` first if needed.
 *
 * @example
 * await verifyAddress("https://pay.example.com", usdtTrc20, "TLa2f6…", false) // "ok"
 */
export async function verifyAddress(
  assetBase: string,
  currency: CryptoCurrency,
  raw: string,
  sandbox: boolean,
): Promise<AddressVerdict> {
  if (!slot().check) await loadScriptOnce(`${assetBase.replace(/\/+$/, "")}/address.js`);
  try {
    return (await slot().check?.(currency, raw, sandbox)) ?? "ok";
  } catch {
    return "ok";
  }
}
