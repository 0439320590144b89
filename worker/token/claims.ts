/**
 * @module
 * The checkout token's claims: what the merchant's backend vouches for. The browser never sets
 * a price; the token is the only source of amount and currency.
 */
import * as z from "zod/mini";

/** Merchant invoice number: also the tail of the upstream orderId. */
export const INVOICE_NUMBER = /^[A-Za-z0-9._-]{1,64}$/;

/** Plain positive decimal string, e.g. `"49.90"`; no sign, no exponent, ≤ 18 decimals. */
const DECIMAL = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;

const AMOUNT_MESSAGE =
  'amount must be a decimal string such as "49.90" (a JSON string, not a number)';

const isLoopbackHttp = (url: URL) =>
  url.protocol === "http:" && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);

/**
 * Where the service's payment page sends the payer after an outcome: https, or http on a
 * loopback host (local development). The service redirects a browser there, so nothing else
 * (no `javascript:`, no plain http to a real host) is accepted.
 */
const payerRedirect = z.url().check(
  z.maxLength(2048),
  z.refine((raw: string) => {
    // zod runs this check even after z.url() failed: an unparsable URL is already named there.
    if (!URL.canParse(raw)) return true;
    const url = new URL(raw);
    return url.protocol === "https:" || isLoopbackHttp(url);
  }, "must be an https:// URL (http only on loopback, for local development)"),
);

export const checkoutClaimsSchema = z.object({
  sub: z
    .string()
    .check(z.regex(INVOICE_NUMBER, "sub must be 1-64 characters of A-Z a-z 0-9 . _ -")),
  // A JSON number gets the same words as "25,50": money travels as a string, never a float.
  amount: z.string({ error: AMOUNT_MESSAGE }).check(z.regex(DECIMAL, AMOUNT_MESSAGE)),
  currency: z
    .string()
    .check(z.regex(/^[A-Z]{3}$/, "currency must be an ISO 4217 code such as USD")),
  exp: z.int().check(z.positive()),
  description: z.optional(z.string().check(z.maxLength(500))),
  customerId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  returnUrl: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2048))),
  /** The payment page sends the payer here after `paid` / `overpaid`. */
  successUrl: z.optional(payerRedirect),
  /** … and here after `failed` / `suspended` / `partially_paid`. */
  failedUrl: z.optional(payerRedirect),
  mode: z.optional(z.enum(["invoice", "deposit"])),
  /** Top-up tokens: the crypto currency to deposit, when the merchant fixes it. */
  cryptoCurrencyCode: z.optional(z.string().check(z.regex(/^[A-Z0-9_]{2,20}$/))),
});

/** Verified claims of a checkout token. */
export type CheckoutClaims = z.output<typeof checkoutClaimsSchema>;
