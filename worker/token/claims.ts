/**
 * @module
 * The checkout token's claims: what the merchant's backend vouches for. The browser never sets
 * a price; the token is the only source of amount and currency. The rules themselves live in
 * the server package (`packages/server/src/token/claim-rules.ts`), which mints the tokens, so
 * minting and verifying cannot disagree.
 */
import * as z from "zod/mini";
import {
  CRYPTO_CODE,
  DECIMAL_AMOUNT,
  FIAT_CODE,
  INVOICE_NUMBER,
  isPayerRedirect,
  MAX_CUSTOMER_ID_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_URL_LENGTH,
} from "../../packages/server/src/token/claim-rules.ts";

export { INVOICE_NUMBER };

/**
 * Where the service's payment page sends the payer after an outcome (`isPayerRedirect`).
 */
const payerRedirect = z.url().check(
  z.maxLength(MAX_URL_LENGTH),
  z.refine(
    // zod runs this check even after z.url() failed: an unparsable URL is already named there.
    (raw: string) => !URL.canParse(raw) || isPayerRedirect(raw),
    "must be an https:// URL (http only on loopback, for local development)",
  ),
);

export const checkoutClaimsSchema = z.object({
  sub: z
    .string()
    .check(z.regex(INVOICE_NUMBER, "sub must be 1-64 characters of A-Z a-z 0-9 . _ -")),
  amount: z
    .string()
    .check(z.regex(DECIMAL_AMOUNT, 'amount must be a decimal string such as "49.90"')),
  currency: z.string().check(z.regex(FIAT_CODE, "currency must be an ISO 4217 code such as USD")),
  exp: z.int().check(z.positive()),
  description: z.optional(z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH))),
  customerId: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CUSTOMER_ID_LENGTH))),
  returnUrl: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(MAX_URL_LENGTH))),
  /** The payment page sends the payer here after `paid` / `overpaid`. */
  successUrl: z.optional(payerRedirect),
  /** … and here after `failed` / `suspended` / `partially_paid`. */
  failedUrl: z.optional(payerRedirect),
  mode: z.optional(z.enum(["invoice", "deposit"])),
  /** Top-up tokens: the crypto currency to deposit, when the merchant fixes it. */
  cryptoCurrencyCode: z.optional(z.string().check(z.regex(CRYPTO_CODE))),
});

/** Verified claims of a checkout token. */
export type CheckoutClaims = z.output<typeof checkoutClaimsSchema>;
