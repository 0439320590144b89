/**
 * @module
 * Mints checkout tokens: a JWT, header `{"alg":"HS256","typ":"JWT"}`, signed with HMAC-SHA256
 * keyed by the UTF-8 bytes of `CHECKOUT_SIGNING_SECRET`. The worker verifies them in
 * `worker/edge/token/verify.ts` against the same rules, `@crypto-checkout/contract`'s
 * `claim-rules.ts`.
 *
 * Any other language: claims `sub` (invoice number), `amount` (decimal string), `currency`
 * (ISO 4217), `exp` (unix seconds), optional `description`, `customerId`, `returnUrl`,
 * `successUrl`, `failedUrl`, `mode`, `cryptoCurrencyCode`. PHP: firebase/php-jwt
 * `JWT::encode($claims, $secret, 'HS256')`; Python: PyJWT `jwt.encode(claims, secret, algorithm="HS256")`.
 */

import {
  CRYPTO_CODE,
  DECIMAL_AMOUNT,
  FIAT_CODE,
  INVOICE_NUMBER,
  isPayerRedirect,
  MAX_CUSTOMER_ID_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_TOKEN_LIFETIME_S,
} from "../../../contract/src/claim-rules.ts";
import { hmacKey, utf8 } from "../hmac.ts";
import { base64url } from "./base64url.ts";

/** Claims a merchant backend puts in a checkout token (`iat` and `exp` are added for you). */
export interface MintClaims {
  /** Your invoice number, `[A-Za-z0-9._-]{1,64}`: one checkout per `sub`. */
  sub: string;
  /** Decimal string such as `"49.90"`: never a number. */
  amount: string;
  /** ISO 4217 code such as `"USD"`. */
  currency: string;
  description?: string;
  customerId?: string;
  /** The widget's "Back to the shop", and the payment page's after cancelled/expired. */
  returnUrl?: string;
  /** https (loopback http in dev): the payment page's destination after paid/overpaid. */
  successUrl?: string;
  /** https (loopback http in dev): … after failed/suspended/partially_paid. */
  failedUrl?: string;
  /** `deposit` for a top-up (`<crypto-checkout mode="deposit">`); default `invoice`. */
  mode?: "invoice" | "deposit";
  /** Top-ups: the crypto currency to deposit, when you fix it. */
  cryptoCurrencyCode?: string;
}

/** Options of `mintCheckoutToken`. */
export interface MintOptions {
  /** Lifetime of the token (default 3600 s, at most 86 400: the worker refuses longer). */
  expiresInSeconds?: number;
  /** The current time in milliseconds (default `Date.now()`). */
  now?: number;
}

/** Each claim's rule, with the message naming it. */
const RULES: { [K in keyof MintClaims]-?: [(value: never) => boolean, string] } = {
  sub: [
    (v: string) => INVOICE_NUMBER.test(v),
    "sub must be 1-64 characters of A-Z a-z 0-9 . _ - (not . or ..)",
  ],
  amount: [
    (v: string) => DECIMAL_AMOUNT.test(v),
    'amount must be a decimal string such as "49.90"',
  ],
  currency: [(v: string) => FIAT_CODE.test(v), "currency must be an ISO 4217 code such as USD"],
  description: [(v: string) => v.length <= MAX_DESCRIPTION_LENGTH, "description is too long"],
  customerId: [
    (v: string) => v.length >= 1 && v.length <= MAX_CUSTOMER_ID_LENGTH,
    "customerId must be 1-128 characters",
  ],
  returnUrl: [isPayerRedirect, "returnUrl must be https (http only on loopback)"],
  successUrl: [isPayerRedirect, "successUrl must be https (http only on loopback)"],
  failedUrl: [isPayerRedirect, "failedUrl must be https (http only on loopback)"],
  mode: [(v: string) => v === "invoice" || v === "deposit", 'mode must be "invoice" or "deposit"'],
  cryptoCurrencyCode: [
    (v: string) => CRYPTO_CODE.test(v),
    "cryptoCurrencyCode must be a code such as BTC",
  ],
};

/**
 * Throws a `TypeError` naming the first claim the worker would refuse.
 *
 * @example
 * checkClaims({ sub: "1001", amount: "49.9", currency: "USD" }); // passes
 * checkClaims({ sub: "1001", amount: 49.9 as never, currency: "USD" }); // throws
 */
export function checkClaims(claims: MintClaims): void {
  if (typeof claims !== "object" || claims === null)
    throw new TypeError("claims must be an object");
  for (const [name, [valid, message]] of Object.entries(RULES)) {
    const value = (claims as unknown as Record<string, unknown>)[name];
    const required = name === "sub" || name === "amount" || name === "currency";
    if (value === undefined && !required) continue;
    if (typeof value !== "string" || !(valid as (v: string) => boolean)(value)) {
      throw new TypeError(message);
    }
  }
}

/**
 * Signs claims as an HS256 JWT without checking them: what `mintCheckoutToken` does after its
 * checks, and what tests use to make tokens the worker must refuse. Not exported by the package.
 *
 * @example
 * await signCheckoutToken({ sub: "1", amount: 10, currency: "USD", exp: 1 }, "secret");
 */
export async function signCheckoutToken(
  payload: Record<string, unknown>,
  secret: string,
): Promise<string> {
  const header = base64url(utf8(JSON.stringify({ alg: "HS256", typ: "JWT" })));
  const body = base64url(utf8(JSON.stringify(payload)));
  const input = `${header}.${body}`;
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), utf8(input));
  return `${input}.${base64url(new Uint8Array(mac))}`;
}

/**
 * Signs a checkout token for `<crypto-checkout token="…">`. Amounts are decimal strings: pass
 * `"49.90"`, never `49.9`. Throws a `TypeError` naming a claim the worker would refuse. The
 * worker refuses a token that lives longer than 24 h (`expiresInSeconds` ≤ 86 400).
 *
 * @example
 * const token = await mintCheckoutToken(
 *   { sub: "1001", amount: "49.90", currency: "USD" },
 *   process.env.CHECKOUT_SIGNING_SECRET!,
 * );
 */
export async function mintCheckoutToken(
  claims: MintClaims,
  secret: string,
  options: MintOptions = {},
): Promise<string> {
  checkClaims(claims);
  const lifetime = options.expiresInSeconds ?? 3600;
  if (!Number.isInteger(lifetime) || lifetime <= 0 || lifetime > MAX_TOKEN_LIFETIME_S) {
    throw new TypeError(
      `expiresInSeconds must be a whole number from 1 to ${MAX_TOKEN_LIFETIME_S}`,
    );
  }
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  return signCheckoutToken({ ...claims, iat: now, exp: now + lifetime }, secret);
}
