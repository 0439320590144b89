/**
 * @module
 * `@crypto-checkout/server`: what a merchant's backend needs to take payments with
 * crypto-checkout, with no dependencies (Web Crypto and `fetch`), on Node ≥ 20, Bun, Deno and
 * Cloudflare Workers.
 *
 * - `mintCheckoutToken(claims, secret)`: the token for `<crypto-checkout token="…">`;
 * - `verifyNotification(rawBody, signatureHeader, secret)`: a notification, verified;
 * - `new MerchantClient({ baseUrl, token })`: the merchant API, typed.
 */
export { type ClientErrorCode, MerchantApiError } from "./client/errors.ts";
export {
  MerchantClient,
  type NotificationFilters,
  type OrderFilters,
  type PageQuery,
} from "./client/merchant-client.ts";
export type { MerchantClientOptions } from "./client/transport.ts";
export {
  type NotificationErrorCode,
  NotificationVerificationError,
} from "./notifications/errors.ts";
export type { SignatureHeaderInput } from "./notifications/signature-header.ts";
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
  verifyNotification,
} from "./notifications/verify.ts";
export { type MintClaims, type MintOptions, mintCheckoutToken } from "./token/mint.ts";
export type * from "./types.ts";
