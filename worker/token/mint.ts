/**
 * @module
 * Mints checkout tokens for Node (≥ 18) backends, and documents the recipe for others.
 *
 * Recipe (any language): a JWT with header `{"alg":"HS256","typ":"JWT"}` and claims
 * `sub` (invoice number), `amount` (decimal string), `currency` (ISO 4217), `exp` (unix seconds),
 * optional `description`, `customerId`, `returnUrl`, `successUrl`, `failedUrl`; signed with HMAC-SHA256 using the UTF-8
 * bytes of `CHECKOUT_SIGNING_SECRET`. PHP: firebase/php-jwt `JWT::encode($claims, $secret, 'HS256')`;
 * Python: PyJWT `jwt.encode(claims, secret, algorithm="HS256")`.
 */
import { sign } from "hono/jwt";

/** Claims a merchant backend puts in a checkout token (`exp` is added for you). */
export interface MintClaims {
  sub: string;
  amount: string;
  currency: string;
  description?: string;
  customerId?: string;
  returnUrl?: string;
  /** https (loopback http in dev): the payment page's destination after paid/overpaid. */
  successUrl?: string;
  /** https (loopback http in dev): … after failed/suspended/partially_paid. */
  failedUrl?: string;
  mode?: "invoice" | "deposit";
  cryptoCurrencyCode?: string;
}

/**
 * Signs a checkout token. Amounts are decimal strings: pass `"49.90"`, never `49.9`. The worker
 * refuses a token that lives longer than 24 h (`expiresInSeconds` ≤ 86 400).
 *
 * @example
 * const token = await mintCheckoutToken(
 *   { sub: "1001", amount: "49.90", currency: "USD" },
 *   process.env.CHECKOUT_SIGNING_SECRET!,
 * );
 * // <crypto-checkout token="${token}"></crypto-checkout>
 */
export async function mintCheckoutToken(
  claims: MintClaims,
  secret: string,
  options: { expiresInSeconds?: number; now?: number } = {},
): Promise<string> {
  if (typeof claims.amount !== "string") throw new TypeError("amount must be a decimal string");
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  return sign(
    { ...claims, iat: now, exp: now + (options.expiresInSeconds ?? 3600) },
    secret,
    "HS256",
  );
}
