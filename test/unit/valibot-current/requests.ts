/**
 * @module
 * TEMPORARY: the valibot schema as the worker ran it before zod/mini (differential test only).
 * What the routes accept: request bodies and path/query patterns. The routes validate with
 * these very schemas (`readJson(c, schema)`), and the OpenAPI document is generated from them
 * (`../openapi/valibot-to-zod.ts` at build time), so the document cannot describe a request the
 * worker does not take. valibot, like every runtime schema of the worker (`lib/schema.ts`).
 */
import * as v from "valibot";
import { CRYPTO_CODE } from "../../../packages/server/src/token/claim-rules.ts";
import { object, strictObject } from "./schema.ts";

/** A crypto currency code (`BTC`, `USDT_TRC20`). */
export const cryptoCode = v.pipe(v.string(), v.regex(CRYPTO_CODE));

/** `POST /v1/checkouts`. */
export const openCheckoutBody = object({
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(8192)),
});

/** `POST /v1/checkouts/:id/currency`. */
export const lockCurrencyBody = object({ cryptoCurrencyCode: cryptoCode });

/** `POST /v1/checkouts/:id/refund-address`. */
export const refundAddressBody = object({
  cryptoCurrencyCode: cryptoCode,
  address: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(128)),
});

/** `POST /v1/deposits`. */
export const openDepositBody = object({
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(8192)),
  cryptoCurrencyCode: v.optional(cryptoCode),
});

/**
 * An amount in a body: a string of at most 64 characters, refused with `message` (also when too
 * long, as zod read `z.string({ error }).check(z.maxLength(64))`); its value is checked later.
 */
const amountText = (message: string) => v.pipe(v.string(message), v.maxLength(64, message));

/**
 * `POST /v1/orders/:invoiceNumber/refund` (an empty body refunds everything refundable).
 * Strict: a misspelt `amount` (`{"amout":"1"}`) is a 400 naming it, never a refund of
 * everything.
 */
export const refundOrderBody = strictObject({
  amount: v.optional(amountText('must be a decimal string such as "15"')),
});

/** Merchant payout orderIds: the upstream idempotency key, sent as is. */
export const PAYOUT_ORDER_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** `POST /v1/payouts`. Strict, like the refund: money leaves on exactly what was named. */
export const payoutQuoteBody = strictObject({
  orderId: v.pipe(
    v.string(),
    v.regex(PAYOUT_ORDER_ID, "orderId must be 1-100 characters of A-Z a-z 0-9 . _ : -"),
  ),
  cryptoCurrencyCode: cryptoCode,
  address: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(128)),
  amount: amountText('must be a decimal string such as "25.50"'),
});

/** `GET /v1/currencies?network=`. */
export const NETWORK_QUERY = /^[A-Za-z0-9 _-]{1,40}$/;

/** `GET /v1/currencies` query: `network` only (strict, like every validated query). */
export const currenciesQuery = strictObject({
  network: v.optional(
    v.pipe(v.string(), v.regex(NETWORK_QUERY, "must be a network name such as Tron")),
  ),
});

/** `GET /v1/currencies/fiat` query: none. */
export const fiatCurrenciesQuery = strictObject({});
