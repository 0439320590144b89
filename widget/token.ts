/**
 * @module
 * The claims of a checkout or top-up token, read in the browser for the UI only. The token is
 * a JWT minted by the merchant's backend; the widget never verifies it (it holds no secret):
 * the worker does, on every call. So nothing read here may decide more than what to show
 * first (e.g. whether the merchant fixed the currency), and a token that does not decode is
 * simply a token with no claims.
 */

/**
 * The token's claims (its middle, base64url JSON), or `{}` when it does not decode.
 *
 * @example
 * tokenClaims("e30.eyJjcnlwdG9DdXJyZW5jeUNvZGUiOiJCVEMifQ.sig").cryptoCurrencyCode // "BTC"
 */
export function tokenClaims(token: string): Record<string, unknown> {
  try {
    const part = token.split(".")[1] ?? "";
    const claims: unknown = JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/")));
    return claims && typeof claims === "object" ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The currency a top-up token fixes, if any.
 *
 * @example
 * fixedCurrency(token) // "USDT_TRC20", or null: the customer picks one
 */
export function fixedCurrency(token: string): string | null {
  const code = tokenClaims(token).cryptoCurrencyCode;
  return typeof code === "string" ? code : null;
}
