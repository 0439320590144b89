/**
 * @module
 * Builds the upstream client from the configuration: the one place that decides the service's
 * base URL (sandbox / production / override). Whether the service offers the in-page currency
 * lock is asked of the service itself (`payment-mode.ts`).
 */
import { resolveUpstreamBaseUrl } from "../upstream/base-url.ts";
import { createUpstreamClient } from "../upstream/client.ts";
import type { CallLimits } from "../upstream/transport.ts";
import type { Config } from "./config.ts";

/** The service's base URL for this configuration. */
export function upstreamBaseUrl(config: Config): string {
  return resolveUpstreamBaseUrl({ sandbox: config.SANDBOX, override: config.UPSTREAM_BASE_URL });
}

/**
 * The upstream client for this configuration. `limits` override the per-call defaults
 * (8 s per attempt, 3 attempts, 15 s in all; see `upstream/transport.ts`).
 *
 * @example
 * const invoice = await upstreamFor(config).getInvoice({ id });
 * // A webhook refetch: one short attempt, no retries.
 * await upstreamFor(config, { maxAttempts: 1, timeoutMs: 5000 }).getInvoice({ id });
 */
export function upstreamFor(config: Config, limits: CallLimits = {}) {
  return createUpstreamClient({
    baseUrl: upstreamBaseUrl(config),
    apiKey: config.API_KEY,
    accountId: config.ACCOUNT_ID,
    ...limits,
  });
}

/**
 * Limits of every webhook-path refetch (invoice, deposit, withdrawal): one attempt of at most
 * 5 s. The service redelivers on our 503, so a quick "not now" beats holding its request.
 */
export const WEBHOOK_REFETCH = { timeoutMs: 5_000, maxAttempts: 1 } as const;
