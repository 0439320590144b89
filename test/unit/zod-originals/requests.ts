/**
 * @module
 * The zod original of `requests.ts` as it was before the worker's schemas moved to valibot (commit
 * f560703), kept verbatim (its schemas and what they need; the rest is the worker's) for the differential
 * tests only (`test/unit/schemas-valibot.test.ts`; never imported by the worker).
 */
import * as z from "zod/mini";
import { CRYPTO_CODE } from "../../../packages/contract/src/claim-rules.ts";

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
 * `POST /v1/orders/:invoiceNumber/refund` (an empty body refunds everything refundable).
 * Strict since the valibot swap (a new user's typo `{"amout":"1"}` refunded everything): the
 * one intended change from f560703's `z.object`, here and in `payoutQuoteBody`.
 */
export const refundOrderBody = z.strictObject({
  amount: z.optional(
    z.string({ error: 'must be a decimal string such as "15"' }).check(z.maxLength(64)),
  ),
});

/** Merchant payout orderIds: the upstream idempotency key, sent as is. */
export const PAYOUT_ORDER_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** `POST /v1/payouts` (strict: see `refundOrderBody`). */
export const payoutQuoteBody = z.strictObject({
  orderId: z
    .string()
    .check(z.regex(PAYOUT_ORDER_ID, "orderId must be 1-100 characters of A-Z a-z 0-9 . _ : -")),
  cryptoCurrencyCode: cryptoCode,
  address: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)),
  amount: z.string({ error: 'must be a decimal string such as "25.50"' }).check(z.maxLength(64)),
});

/** `GET /v1/currencies?network=`. */
export const NETWORK_QUERY = /^[A-Za-z0-9 _-]{1,40}$/;
