/**
 * @module
 * The checkout token's claim rules, as plain predicates: the one place they are written. The
 * worker builds its valibot schema from them (`worker/edge/token/claims.ts`) and
 * `@crypto-checkout/server`'s `mintCheckoutToken` checks them, so a token the server package
 * mints is one the worker accepts, and it refuses what the worker would refuse before a shopper
 * ever sees it. No dependencies: it runs wherever the server package runs.
 */

/**
 * Merchant invoice number (the token's `sub`): also the tail of the upstream orderId and a path
 * segment of `GET /v1/orders/:invoiceNumber`, so never `.` or `..` (URLs resolve those away).
 */
export const INVOICE_NUMBER = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,64}$/;

/** The longest a checkout token may live: 24 h (the worker refuses a longer `exp`). */
export const MAX_TOKEN_LIFETIME_S = 24 * 60 * 60;

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
 * Why `url` may not be a payer redirect, or null when it may: https, or http on a loopback host
 * when `loopbackHttp` (a sandbox deployment: local development); never a user name or password
 * (`https://shop.example@evil.example/` reads as the shop but goes elsewhere).
 *
 * @example
 * redirectProblem(new URL("http://localhost:1@evil.example/"), true); // "must not carry a user name or password"
 */
export function redirectProblem(url: URL, loopbackHttp: boolean): string | null {
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password";
  if (url.protocol === "https:" || (loopbackHttp && isLoopbackHttp(url))) return null;
  return loopbackHttp
    ? "must be an https:// URL (http only on loopback, for local development)"
    : "must be an https:// URL";
}

/**
 * Where the service's payment page may send the payer (`returnUrl`, `successUrl`, `failedUrl`):
 * what `redirectProblem` allows against a sandbox (a production worker also refuses loopback
 * http, which a minting server cannot tell apart).
 *
 * @example
 * isPayerRedirect("https://shop.example/thanks"); // true
 * isPayerRedirect("http://shop.example/thanks");  // false
 */
export function isPayerRedirect(raw: string): boolean {
  if (raw.length > MAX_URL_LENGTH || !URL.canParse(raw)) return false;
  const url = new URL(raw);
  return url.href.length <= MAX_URL_LENGTH && redirectProblem(url, true) === null;
}
