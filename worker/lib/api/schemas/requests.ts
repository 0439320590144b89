/**
 * @module
 * What the routes accept: request bodies and path/query patterns. The routes validate with
 * these very schemas (`readJson(c, schema)`), and the OpenAPI document is generated from them
 * (`../openapi/document.ts`, by `z.toJSONSchema`), so the document cannot describe a request the
 * worker does not take.
 */
import * as z from "zod/mini";
import { CRYPTO_CODE } from "../../../../packages/contract/src/claim-rules.ts";

/** A crypto currency code (`BTC`, `USDT_TRC20`). */
export const cryptoCode = z.string().check(z.regex(CRYPTO_CODE));

/** `POST /v1/checkouts`. */
export const openCheckoutBody = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(8192)),
});

/** `POST /v1/checkouts/:id/currency`. */
export const lockCurrencyBody = z.object({ cryptoCurrencyCode: cryptoCode });

/** `POST /v1/checkouts/:id/refund-address`. */
export const refundAddressBody = z.object({
  cryptoCurrencyCode: cryptoCode,
  address: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)),
});

/** `POST /v1/deposits`. */
export const openDepositBody = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(8192)),
  cryptoCurrencyCode: z.optional(cryptoCode),
});

/**
 * An amount in a body: a string of at most 64 characters, refused with `message` (also when too
 * long); its value is checked later.
 */
const amountText = (message: string) =>
  z.string({ error: message }).check(z.maxLength(64, message));

/**
 * `POST /v1/orders/:invoiceNumber/refund` (an empty body refunds everything refundable).
 * Strict: a misspelt `amount` (`{"amout":"1"}`) is a 400 naming it, never a refund of
 * everything.
 */
export const refundOrderBody = z.strictObject({
  amount: z.optional(amountText('must be a decimal string such as "15"')),
});

/** Merchant payout orderIds: the upstream idempotency key, sent as is. */
export const PAYOUT_ORDER_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** `POST /v1/payouts`. Strict, like the refund: money leaves on exactly what was named. */
export const payoutQuoteBody = z.strictObject({
  orderId: z
    .string()
    .check(z.regex(PAYOUT_ORDER_ID, "orderId must be 1-100 characters of A-Z a-z 0-9 . _ : -")),
  cryptoCurrencyCode: cryptoCode,
  address: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)),
  amount: amountText('must be a decimal string such as "25.50"'),
});

/** `GET /v1/currencies?network=`. */
export const NETWORK_QUERY = /^[A-Za-z0-9 _-]{1,40}$/;

/** `GET /v1/currencies` query: `network` only (strict, like every validated query). */
export const currenciesQuery = z.strictObject({
  network: z.optional(
    z.string().check(z.regex(NETWORK_QUERY, "must be a network name such as Tron")),
  ),
});

/** `GET /v1/currencies/fiat` query: none. */
export const fiatCurrenciesQuery = z.strictObject({});
