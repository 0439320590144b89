/**
 * @module
 * The checkout token's claims: what the merchant's backend vouches for. The browser never sets
 * a price; the token is the only source of amount and currency.
 *
 * Hardening (issue 20): the invoice number is never `.` or `..` (a URL path segment that
 * cannot name an order); every URL the service's page may send the payer to (`returnUrl`,
 * `successUrl`, `failedUrl`) follows one rule and is sent upstream in its WHATWG-normalised
 * form; the token's lifetime is capped (`MAX_TOKEN_LIFETIME_S`, checked in `verify.ts`).
 */
import * as z from "zod/mini";

/**
 * Merchant invoice number: also the tail of the upstream orderId and a path segment of
 * `GET /v1/orders/:invoiceNumber`, so never `.` or `..` (URLs resolve those away).
 */
export const INVOICE_NUMBER = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,64}$/;

/** Plain positive decimal string, e.g. `"49.90"`; no sign, no exponent, ≤ 18 decimals. */
const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

/** Longest URL accepted, measured on the normalised form the service receives. */
const MAX_URL_LENGTH = 2048;

const AMOUNT_MESSAGE =
  'amount must be a decimal string such as "49.90" (a JSON string, not a number)';

const isLoopbackHttp = (url: URL) =>
  url.protocol === "http:" && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);

/**
 * Why `raw` may not be a payer redirect, or null when it may: https, or http on a loopback host
 * when `loopbackHttp` (a sandbox deployment: local development); never a user name or
 * password (`https://shop.example@evil.example/` reads as the shop but goes elsewhere).
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
 * Where the service's payment page sends the payer after an outcome. The service redirects a
 * browser there, so nothing else (no `javascript:`, no plain http to a real host, no userinfo)
 * is accepted, and what is sent upstream is the URL's normalised form (`HTTPS://Shop.example/a
 * b` → `https://shop.example/a%20b`): the service never sees a form it may refuse.
 */
function payerRedirect(loopbackHttp: boolean) {
  return z.pipe(
    z.string().check(z.maxLength(MAX_URL_LENGTH)),
    z.transform((raw: string, ctx) => {
      const url = URL.canParse(raw) ? new URL(raw) : null;
      const problem = url
        ? (redirectProblem(url, loopbackHttp) ??
          (url.href.length > MAX_URL_LENGTH ? "is too long once normalised" : null))
        : "must be an absolute URL";
      if (problem) ctx.issues.push({ code: "custom", message: problem, input: raw });
      return url?.href ?? raw;
    }),
  );
}

function claimsSchema(loopbackHttp: boolean) {
  return z.object({
    sub: z
      .string()
      .check(
        z.regex(INVOICE_NUMBER, "sub must be 1-64 characters of A-Z a-z 0-9 . _ - (not . or ..)"),
      ),
    // A JSON number gets the same words as "25,50": money travels as a string, never a float.
    amount: z.string({ error: AMOUNT_MESSAGE }).check(z.regex(DECIMAL, AMOUNT_MESSAGE)),
    currency: z
      .string()
      .check(z.regex(/^[A-Z]{3}$/, "currency must be an ISO 4217 code such as USD")),
    exp: z.int().check(z.positive()),
    /** Issued at (unix seconds), when present: `exp` may not be more than the maximum after it. */
    iat: z.optional(z.int().check(z.nonnegative())),
    description: z.optional(z.string().check(z.maxLength(500))),
    customerId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
    /** The payment page sends the payer here after `cancelled` / `expired`; the widget's "Back". */
    returnUrl: z.optional(payerRedirect(loopbackHttp)),
    /** The payment page sends the payer here after `paid` / `overpaid`. */
    successUrl: z.optional(payerRedirect(loopbackHttp)),
    /** … and here after `failed` / `suspended` / `partially_paid`. */
    failedUrl: z.optional(payerRedirect(loopbackHttp)),
    mode: z.optional(z.enum(["invoice", "deposit"])),
    /** Top-up tokens: the crypto currency to deposit, when the merchant fixes it. */
    cryptoCurrencyCode: z.optional(z.string().check(z.regex(/^[A-Z0-9_]{2,20}$/))),
  });
}

/**
 * The claims' schema of a deployment: loopback http redirects only against a sandbox.
 *
 * @example
 * checkoutClaimsSchema(config.SANDBOX).safeParse(payload);
 */
export function checkoutClaimsSchema(sandbox: boolean) {
  return sandbox ? SANDBOX_CLAIMS : PRODUCTION_CLAIMS;
}
const SANDBOX_CLAIMS = claimsSchema(true);
const PRODUCTION_CLAIMS = claimsSchema(false);

/** Verified claims of a checkout token. */
export type CheckoutClaims = z.output<typeof SANDBOX_CLAIMS>;
