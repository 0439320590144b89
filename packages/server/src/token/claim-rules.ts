/**
 * @module
 * The checkout token's claim rules, as plain predicates: the one place they are written. The
 * worker builds its zod schema from them (`worker/token/claims.ts`), so a token this package
 * mints is one the worker accepts, and `mintCheckoutToken` refuses what the worker would refuse
 * before a shopper ever sees it. No dependencies: it runs wherever the package runs.
 */

/** Merchant invoice number (the token's `sub`): also the tail of the upstream orderId. */
export const INVOICE_NUMBER = /^[A-Za-z0-9._-]{1,64}$/;

/** Plain non-negative decimal string, e.g. `"49.90"`; no sign, no exponent, ≤ 18 decimals. */
export const DECIMAL_AMOUNT = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

/** ISO 4217 fiat code. */
export const FIAT_CODE = /^[A-Z]{3}$/;

/** A crypto currency code as the service names it (`BTC`, `USDT_TRC20`). */
export const CRYPTO_CODE = /^[A-Z0-9_]{2,20}$/;

/** Longest URL claim accepted. */
export const MAX_URL_LENGTH = 2048;

/** Longest `description`. */
export const MAX_DESCRIPTION_LENGTH = 500;

/** Longest `customerId`. */
export const MAX_CUSTOMER_ID_LENGTH = 128;

const isLoopbackHttp = (url: URL) =>
  url.protocol === "http:" && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);

/**
 * Where the service's payment page may send the payer (`successUrl`, `failedUrl`): https, or
 * http on a loopback host (local development). The service redirects a browser there, so
 * nothing else (no `javascript:`, no plain http to a real host) is accepted.
 *
 * @example
 * isPayerRedirect("https://shop.example/thanks"); // true
 * isPayerRedirect("http://shop.example/thanks");  // false
 */
export function isPayerRedirect(raw: string): boolean {
  if (raw.length > MAX_URL_LENGTH || !URL.canParse(raw)) return false;
  const url = new URL(raw);
  return url.protocol === "https:" || isLoopbackHttp(url);
}

/**
 * The widget's "Back to the shop" link (`returnUrl`): any http(s) URL.
 *
 * @example
 * isReturnUrl("http://shop.example/"); // true
 */
export function isReturnUrl(raw: string): boolean {
  if (raw.length > MAX_URL_LENGTH || !URL.canParse(raw)) return false;
  return /^https?:$/.test(new URL(raw).protocol);
}
