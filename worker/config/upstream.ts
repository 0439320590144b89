/**
 * @module
 * Builds the upstream client from the configuration: the one place that decides the service's
 * base URL (sandbox / production / override) and whether in-page currency lock is available.
 */
import { resolveUpstreamBaseUrl } from "../upstream/base-url.ts";
import { createUpstreamClient, type UpstreamClientOptions } from "../upstream/client.ts";
import { supportsCurrencyLock } from "../upstream/currency-lock.ts";
import type { Config } from "./config.ts";

/** The service's base URL for this configuration. */
export function upstreamBaseUrl(config: Config): string {
  return resolveUpstreamBaseUrl({ sandbox: config.SANDBOX, override: config.UPSTREAM_BASE_URL });
}

/**
 * The upstream client for this configuration. `limits` tightens the transport's per-attempt
 * timeout and attempt count for callers that must answer fast (the webhook refetch).
 *
 * @example
 * const invoice = await upstreamFor(config).getInvoice({ id });
 */
export function upstreamFor(
  config: Config,
  limits: Pick<UpstreamClientOptions, "timeoutMs" | "maxAttempts"> = {},
) {
  return createUpstreamClient({
    baseUrl: upstreamBaseUrl(config),
    apiKey: config.API_KEY,
    accountId: config.ACCOUNT_ID,
    ...limits,
  });
}

/** `in-page` when the upstream offers the currency-lock extension, else `hosted`. */
export function checkoutMode(config: Config): "in-page" | "hosted" {
  return supportsCurrencyLock(upstreamBaseUrl(config)) ? "in-page" : "hosted";
}
