/**
 * @module
 * TEMPORARY: the valibot schema as the worker ran it before zod/mini (differential test only).
 * The checkout token's claims: what the merchant's backend vouches for. The browser never sets
 * a price; the token is the only source of amount and currency.
 *
 * Hardening (issue 20): the invoice number is never `.` or `..` (a URL path segment that
 * cannot name an order); every URL the service's page may send the payer to (`returnUrl`,
 * `successUrl`, `failedUrl`) follows one rule and is sent upstream in its WHATWG-normalised
 * form; the token's lifetime is capped (`MAX_TOKEN_LIFETIME_S`, checked in `verify.ts`).
 *
 * The rules themselves (patterns, lengths, `redirectProblem`) live in the server package
 * (`packages/server/src/token/claim-rules.ts`), which mints the tokens, so minting and
 * verifying cannot disagree.
 */
import * as v from "valibot";
import {
  CRYPTO_CODE,
  DECIMAL_AMOUNT,
  FIAT_CODE,
  INVOICE_NUMBER,
  MAX_CUSTOMER_ID_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_URL_LENGTH,
  redirectProblem,
} from "../../../packages/server/src/token/claim-rules.ts";
import { object } from "./schema.ts";

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
  return v.pipe(
    v.string(),
    v.maxLength(MAX_URL_LENGTH),
    v.rawTransform(({ dataset, addIssue }) => {
      const raw = dataset.value;
      const url = URL.canParse(raw) ? new URL(raw) : null;
      const problem = url
        ? (redirectProblem(url, loopbackHttp) ??
          (url.href.length > MAX_URL_LENGTH ? "is too long once normalised" : null))
        : "must be an absolute URL";
      if (problem) addIssue({ message: problem });
      return url?.href ?? raw;
    }),
  );
}

/**
 * A JSON safe integer above `min` (`exclusive`) or from `min`: what zod's
 * `z.int().check(z.positive())` and `z.int().check(z.nonnegative())` accepted, as one check
 * (zod's number schemas are ≈ 0.7 KB of the gzip bundle, README "Worker bundle size";
 * `test/unit/token-claims.test.ts` compares both). A refusal reads "Invalid input", as theirs did.
 */
const safeIntFrom = (min: number, exclusive: boolean) =>
  v.custom<number>(
    (value) =>
      Number.isSafeInteger(value) && (exclusive ? Number(value) > min : Number(value) >= min),
  );

function claimsSchema(loopbackHttp: boolean) {
  return object({
    sub: v.pipe(
      v.string(),
      v.regex(INVOICE_NUMBER, "sub must be 1-64 characters of A-Z a-z 0-9 . _ - (not . or ..)"),
    ),
    // A JSON number is told money travels as a string, never a float; "25,50" is not told so.
    amount: v.pipe(v.string(AMOUNT_TYPE_MESSAGE), v.regex(DECIMAL_AMOUNT, AMOUNT_MESSAGE)),
    currency: v.pipe(
      v.string(),
      v.regex(FIAT_CODE, "currency must be an ISO 4217 code such as USD"),
    ),
    exp: safeIntFrom(0, true),
    /** Issued at (unix seconds), when present: `exp` may not be more than the maximum after it. */
    iat: v.optional(safeIntFrom(0, false)),
    description: v.optional(v.pipe(v.string(), v.maxLength(MAX_DESCRIPTION_LENGTH))),
    customerId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_CUSTOMER_ID_LENGTH))),
    /** The payment page sends the payer here after `cancelled` / `expired`; the widget's "Back". */
    returnUrl: v.optional(payerRedirect(loopbackHttp)),
    /** The payment page sends the payer here after `paid` / `overpaid`. */
    successUrl: v.optional(payerRedirect(loopbackHttp)),
    /** … and here after `failed` / `suspended` / `partially_paid`. */
    failedUrl: v.optional(payerRedirect(loopbackHttp)),
    mode: v.optional(v.picklist(["invoice", "deposit"])),
    /** Top-up tokens: the crypto currency to deposit, when the merchant fixes it. */
    cryptoCurrencyCode: v.optional(v.pipe(v.string(), v.regex(CRYPTO_CODE))),
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
export type CheckoutClaims = v.InferOutput<typeof SANDBOX_CLAIMS>;
