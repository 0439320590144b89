/**
 * @module
 * Verifies a checkout token: HS256 only (never `none`, never another algorithm), signature,
 * expiry, the claims' shape, then its lifetime: `exp` at most `MAX_TOKEN_LIFETIME_S` (24 h)
 * after now (plus `CLOCK_SKEW_S` for the minting server's clock) and after `iat` when present.
 * A token that lives longer (a leaked one would open checkouts for years) is 401
 * `token_lifetime_exceeded`. Fiat rules (known currency, decimals, minimum) are checked by the
 * caller against the live fiat list.
 */
import { MAX_TOKEN_LIFETIME_S } from "../../../packages/contract/src/claim-rules.ts";
import { ApiError } from "../../lib/api-error.ts";
import { check } from "../../lib/schema.ts";
import { decodeJwtPart, JwtRefused, verifyHs256 } from "../../lib/signing/jwt-hs256.ts";
import { type CheckoutClaims, checkoutClaimsSchema } from "./claims.ts";

/** The longest a checkout token may live: 24 h (`exp` after now, and after `iat`); one rule with the package's `mintCheckoutToken`. */
export { MAX_TOKEN_LIFETIME_S };
/** How far ahead of the worker's clock the minting server's may be: 5 min. */
export const CLOCK_SKEW_S = 5 * 60;

/** How a deployment verifies: loopback http redirects only against a sandbox. */
export interface VerifyOptions {
  sandbox: boolean;
  /** The worker's clock, epoch ms (tests). */
  now?: number;
}

/**
 * Returns the verified claims or throws `ApiError` 401 `token_invalid` / `token_expired` /
 * `token_lifetime_exceeded`, or 400 `validation_failed` for well-signed but malformed claims.
 *
 * @example
 * const claims = await verifyCheckoutToken(body.token, config.CHECKOUT_SIGNING_SECRET, { sandbox: config.SANDBOX });
 */
export async function verifyCheckoutToken(
  token: string,
  secret: string,
  options: VerifyOptions,
): Promise<CheckoutClaims> {
  if (token.length > 8192 || token.split(".").length !== 3) {
    throw new ApiError(401, "token_invalid", "The checkout token is not a valid JWT.");
  }
  let alg: unknown;
  let exp: unknown;
  try {
    const [header, payload] = token.split(".") as [string, string];
    // Both parts must decode (JSON in base64url) before the algorithm is looked at.
    exp = (decodeJwtPart(payload) as { exp?: unknown } | null)?.exp;
    alg = (decodeJwtPart(header) as { alg?: unknown }).alg;
  } catch {
    throw new ApiError(401, "token_invalid", "The checkout token is not a valid JWT.");
  }
  if (alg !== "HS256") {
    throw new ApiError(401, "token_invalid", "The checkout token must be signed with HS256.");
  }
  let payload: unknown;
  try {
    payload = await verifyHs256(token, secret);
  } catch (error) {
    if (error instanceof JwtRefused && error.reason === "expired") {
      // hono/jwt's verdict (kept by `verifyHs256`) calls an `exp` that is not a number
      // "expired": the shopper would be told to reload a page that mints the same token again.
      // It is the merchant's malformed token, said so (`Number.isFinite` takes no non-number).
      if (!Number.isFinite(exp)) {
        throw new ApiError(
          401,
          "token_invalid",
          "The checkout token's exp claim must be a number (unix seconds).",
        );
      }
      throw new ApiError(401, "token_expired", "The checkout token has expired; reload the page.");
    }
    throw new ApiError(401, "token_invalid", "The checkout token's signature is not valid.");
  }
  const claims = check(checkoutClaimsSchema(options.sandbox), payload);
  if (!claims.success) {
    const issue = claims.issues[0];
    const where = issue?.path.join(".") || "claims";
    throw new ApiError(400, "validation_failed", `Checkout token claim ${where}: ${issue?.detail}`);
  }
  refuseLongLived(claims.data, Math.floor((options.now ?? Date.now()) / 1000));
  return claims.data;
}

/** 401 `token_lifetime_exceeded` when `exp` is further than the maximum from now or `iat`. */
function refuseLongLived(claims: { exp: number; iat?: number | undefined }, now: number): void {
  const fromNow = claims.exp - now > MAX_TOKEN_LIFETIME_S + CLOCK_SKEW_S;
  const fromIat = claims.iat !== undefined && claims.exp - claims.iat > MAX_TOKEN_LIFETIME_S;
  if (fromNow || fromIat) {
    throw new ApiError(
      401,
      "token_lifetime_exceeded",
      "The checkout token lives too long: exp may be at most 24 h after now (and after iat).",
    );
  }
}
