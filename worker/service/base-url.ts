/**
 * @module
 * The service's base URL: the one place that knows the official hosts.
 */

/** The service's production API. */
export const PRODUCTION_BASE_URL = "https://api-merchant.cryptonly.net";
/** The service's sandbox API (test networks only; separate credentials). */
export const SANDBOX_BASE_URL = "https://sandbox-api-merchant.cryptonly.net";
/** Hostnames of the official service, production and sandbox. */
export const OFFICIAL_HOSTS: readonly string[] = [
  new URL(PRODUCTION_BASE_URL).hostname,
  new URL(SANDBOX_BASE_URL).hostname,
];

/**
 * `override` (e.g. `UPSTREAM_BASE_URL`, the local sandbox) when set, else the official
 * sandbox or production URL. Throws `TypeError` when the override is not an http(s) URL.
 *
 * @example
 * resolveUpstreamBaseUrl({ sandbox: true }); // "https://sandbox-api-merchant.cryptonly.net"
 * resolveUpstreamBaseUrl({ sandbox: true, override: "http://127.0.0.1:8788/" }); // "http://127.0.0.1:8788"
 */
export function resolveUpstreamBaseUrl(input: { sandbox: boolean; override?: string }): string {
  const override = input.override?.trim();
  if (override) {
    let url: URL;
    try {
      url = new URL(override);
    } catch {
      throw new TypeError("UPSTREAM_BASE_URL must be an absolute http(s) URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError("UPSTREAM_BASE_URL must be an absolute http(s) URL");
    }
    // The service has no path prefix: requests go to the origin root.
    return url.origin;
  }
  return input.sandbox ? SANDBOX_BASE_URL : PRODUCTION_BASE_URL;
}
