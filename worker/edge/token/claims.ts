/**
 * @module
 * The checkout token's claims: what the merchant's backend vouches for. The browser never sets
 * a price; the token is the only source of amount and currency.
 *
 * Hardening (issue 20): the invoice number is never `.` or `..` (a URL path segment that
 * cannot name an order); every URL the service's page may send the payer to (`returnUrl`,
 * `successUrl`, `failedUrl`) follows one rule and is sent upstream in its WHATWG-normalised
 * form; the token's lifetime is capped (`MAX_TOKEN_LIFETIME_S`, checked in `verify.ts`).
 *
 * The rules themselves (patterns, lengths, `redirectProblem`) live in the contract package
 * (`packages/contract/src/claim-rules.ts`), which the server package mints the tokens with, so
 * minting and verifying cannot disagree.
 */
import * as z from "zod/mini";
import {
  CRYPTO_CODE,
  DECIMAL_AMOUNT,
  FIAT_CODE,
  INVOICE_NUMBER,
  MAX_CUSTOMER_ID_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_URL_LENGTH,
  redirectProblem,
} from "../../../packages/contract/src/claim-rules.ts";

export { INVOICE_NUMBER };

const AMOUNT_MESSAGE = 'amount must be a decimal string such as "49.90"';
/** A value of another JSON type (a number, mostly) is told money travels as a string. */
const AMOUNT_TYPE_MESSAGE = `${AMOUNT_MESSAGE} (a JSON string, not a number)`;

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

/**
 * A JSON safe integer above `min` (`exclusive`) or from `min`, as one test: a number that is
 * not a safe integer (1.5, 1e400) and one out of range both read "Invalid input".
 */
const safeIntFrom = (min: number, exclusive: boolean) =>
  z.custom<number>(
    (value) =>
      Number.isSafeInteger(value) && (exclusive ? Number(value) > min : Number(value) >= min),
  );

function claimsSchema(loopbackHttp: boolean) {
  return z.object({
    sub: z
      .string()
      .check(
        z.regex(INVOICE_NUMBER, "sub must be 1-64 characters of A-Z a-z 0-9 . _ - (not . or ..)"),
      ),
    // A JSON number is told money travels as a string, never a float; "25,50" is not told so.
    amount: z.string({ error: AMOUNT_TYPE_MESSAGE }).check(z.regex(DECIMAL_AMOUNT, AMOUNT_MESSAGE)),
    currency: z.string().check(z.regex(FIAT_CODE, "currency must be an ISO 4217 code such as USD")),
    exp: safeIntFrom(0, true),
    /** Issued at (unix seconds), when present: `exp` may not be more than the maximum after it. */
    iat: z.optional(safeIntFrom(0, false)),
    description: z.optional(z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH))),
    customerId: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CUSTOMER_ID_LENGTH))),
    /** The payment page sends the payer here after `cancelled` / `expired`; the widget's "Back". */
    returnUrl: z.optional(payerRedirect(loopbackHttp)),
    /** The payment page sends the payer here after `paid` / `overpaid`. */
    successUrl: z.optional(payerRedirect(loopbackHttp)),
    /** … and here after `failed` / `suspended` / `partially_paid`. */
    failedUrl: z.optional(payerRedirect(loopbackHttp)),
    mode: z.optional(z.enum(["invoice", "deposit"])),
    /** Top-up tokens: the crypto currency to deposit, when the merchant fixes it. */
    cryptoCurrencyCode: z.optional(z.string().check(z.regex(CRYPTO_CODE))),
  });
}

/**
 * The claims' schema of a deployment: loopback http redirects only against a sandbox.
 *
 * @example
 * check(checkoutClaimsSchema(config.SANDBOX), payload);
 */
export function checkoutClaimsSchema(sandbox: boolean) {
  return sandbox ? SANDBOX_CLAIMS : PRODUCTION_CLAIMS;
}
const SANDBOX_CLAIMS = claimsSchema(true);
const PRODUCTION_CLAIMS = claimsSchema(false);

/** Verified claims of a checkout token. */
export type CheckoutClaims = z.output<typeof SANDBOX_CLAIMS>;
