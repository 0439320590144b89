/**
 * @module
 * URLs from the service (payment page, currency icons) before they reach `href`/`src`: only
 * `https:`, or `http:` on a loopback host (local development), so a `javascript:` or `data:`
 * URL can never run or load inside the storefront's page.
 */

/**
 * `url` when it is safe to link or load, else undefined.
 *
 * @example
 * safeUrl("https://pay.example.com/p/1") // "https://pay.example.com/p/1"
 * safeUrl("javascript:alert(1)") // undefined
 */
export function safeUrl(url: string | null): string | undefined {
  return url && /^(https:|http:\/\/(localhost|127\.0\.0\.1|\[::1\])([:/]|$))/i.test(url)
    ? url
    : undefined;
}

/**
 * A wallet deep link when it is an absolute payment URI (`bitcoin:`, `ethereum:`), else
 * undefined: a bare address in `href` would be a relative URL (the storefront's 404), so a
 * network without a payment URI is paid by copy and QR code only.
 *
 * @example
 * walletLink("bitcoin:tb1q…?amount=0.001") // "bitcoin:tb1q…?amount=0.001"
 * walletLink("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7") // undefined
 */
export function walletLink(uri: string | null): string | undefined {
  return uri && /^(bitcoin|ethereum):[^/]/i.test(uri) ? uri : undefined;
}
