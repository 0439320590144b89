/**
 * @module
 * Verifies a checkout token: HS256 only (never `none`, never another algorithm), signature,
 * expiry, then the claims' shape. Fiat rules (known currency, decimals, minimum) are checked by
 * the caller against the live fiat list.
 */
import { decode, verify } from "hono/jwt";
import { JwtTokenExpired } from "hono/utils/jwt/types";
import { ApiError } from "../http/api-error.ts";
import { type CheckoutClaims, checkoutClaimsSchema } from "./claims.ts";

/**
 * Returns the verified claims or throws `ApiError` 401 `token_invalid` / `token_expired`,
 * or 400 `validation_failed` for well-signed but malformed claims.
 *
 * @example
 * const claims = await verifyCheckoutToken(body.token, config.CHECKOUT_SIGNING_SECRET);
 */
export async function verifyCheckoutToken(token: string, secret: string): Promise<CheckoutClaims> {
  if (token.length > 8192 || token.split(".").length !== 3) {
    throw new ApiError(401, "token_invalid", "The checkout token is not a valid JWT.");
  }
  let alg: unknown;
  try {
    alg = decode(token).header.alg;
  } catch {
    throw new ApiError(401, "token_invalid", "The checkout token is not a valid JWT.");
  }
  if (alg !== "HS256") {
    throw new ApiError(401, "token_invalid", "The checkout token must be signed with HS256.");
  }
  let payload: unknown;
  try {
    payload = await verify(token, secret, { alg: "HS256", iat: false });
  } catch (error) {
    if (error instanceof JwtTokenExpired) {
      throw new ApiError(401, "token_expired", "The checkout token has expired; reload the page.");
    }
    throw new ApiError(401, "token_invalid", "The checkout token's signature is not valid.");
  }
  const claims = checkoutClaimsSchema.safeParse(payload);
  if (!claims.success) {
    const issue = claims.error.issues[0];
    const where = issue?.path.join(".") || "claims";
    throw new ApiError(
      400,
      "validation_failed",
      `Checkout token claim ${where}: ${issue?.message}`,
    );
  }
  return claims.data;
}
