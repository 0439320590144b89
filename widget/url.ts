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
