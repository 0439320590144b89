/**
 * @module
 * Builds the upstream client from the configuration: the one place that decides the service's
 * base URL (sandbox / production / override) and puts every call behind the deployment's
 * upstream budget (`budget/`), at the caller's priority. Whether the service offers the
 * in-page currency lock is asked of the service itself (`payment-mode.ts`).
 *
 * The budget is installed by the worker's entry (`core/budget/install.ts`), which owns the Durable
 * Object binding; a Node script (`npm run doctor`) builds clients without one.
 */

import { resolveUpstreamBaseUrl } from "../../service/base-url.ts";
import { createUpstreamClient } from "../../service/client.ts";
import { createFacilitator, type Facilitator } from "../../service/facilitator.ts";
import type { CallLimits, UpstreamGate } from "../../service/transport.ts";
import type { Priority } from "../budget/budget-rpc.ts";
import type { Config } from "./config.ts";
import { x402Settings } from "./x402-settings.ts";

/** The service's base URL for this configuration. */
export function upstreamBaseUrl(config: Config): string {
  return resolveUpstreamBaseUrl({ sandbox: config.SANDBOX, override: config.UPSTREAM_BASE_URL });
}

/**
 * Makes the gate of one priority (and client, in the shopper lanes) for a configuration
 * (installed by `core/budget/install.ts`); `prefetch` asks the budget for a call ahead of the
 * call that needs it (`prefetchUpstream`).
 */
export type GateFactory = (
  config: Config,
  priority: Priority,
  client?: string,
) => UpstreamGate & { prefetch?(): void };

let gates: GateFactory | null = null;

/**
 * Puts every client `upstreamFor` builds from now on behind `factory`'s gates (null: none).
 *
 * @example
 * installUpstreamGates((config, priority) => budgetGate(...));
 */
export function installUpstreamGates(factory: GateFactory | null): void {
  gates = factory;
}

/**
 * Asks the budget for a call of `priority` now, for a call this isolate is about to send (a
 * create asks before committing its claims, so the budget's round trip overlaps the commit).
 * Nothing without a budget; never throws (the call's own gate asks again).
 *
 * @example
 * prefetchUpstream(config); // then write, then `upstreamFor(config).createInvoice(…)`
 */
export function prefetchUpstream(
  config: Config,
  priority: Priority = "interactive",
  client?: string,
): void {
  gates?.(config, priority, client).prefetch?.();
}

/**
 * Limits of one upstream client, and whose calls they are: the lane (default `interactive`),
 * and in the shopper lanes the shopper's client key (`edge/http/client-key.ts`), so its calls
 * count in its fair share of the budget (`core/budget/shares.ts`).
 */
export type ClientLimits = CallLimits & { priority?: Priority; client?: string | undefined };

/**
 * The merchant's own calls (the doctor, a payout's or refund's quote and commit): the budget's
 * first lane, ahead of every shopper.
 */
export const MERCHANT_CALL = { priority: "merchant" } as const satisfies ClientLimits;

/**
 * The upstream client for this configuration. `limits` override the per-call defaults
 * (8 s per attempt, 3 attempts, 15 s in all; see `service/transport.ts`) and name the
 * calls' priority in the budget.
 *
 * @example
 * const invoice = await upstreamFor(config).getInvoice({ id });
 * // A webhook refetch: one short attempt, no retries, after shoppers' calls.
 * await upstreamFor(config, WEBHOOK_REFETCH).getInvoice({ id });
 */
export function upstreamFor(config: Config, limits: ClientLimits = {}) {
  const { priority = "interactive", client, ...callLimits } = limits;
  const gate = gates?.(config, priority, client);
  return createUpstreamClient({
    baseUrl: upstreamBaseUrl(config),
    apiKey: config.API_KEY,
    accountId: config.ACCOUNT_ID,
    ...callLimits,
    ...(gate ? { gate } : {}),
  });
}

/**
 * Limits of every webhook-path refetch (invoice, deposit, withdrawal): one attempt of at most
 * 5 s. The service redelivers on our 503, so a quick "not now" beats holding its request.
 */
export const WEBHOOK_REFETCH = {
  timeoutMs: 5_000,
  maxAttempts: 1,
  priority: "webhook",
} as const satisfies ClientLimits;

/**
 * The x402 facilitator client of this configuration (null when x402 is off), behind the same
 * budget as every other call, at `limits`' priority.
 *
 * @example
 * const answer = await facilitatorFor(config)?.settle(request);
 */
export function facilitatorFor(config: Config, limits: ClientLimits = {}): Facilitator | null {
  const x402 = x402Settings(config);
  if (!x402) return null;
  const { priority = "interactive", client, ...callLimits } = limits;
  const gate = gates?.(config, priority, client);
  return createFacilitator(
    {
      baseUrl: upstreamBaseUrl(config),
      apiKey: config.API_KEY,
      accountId: config.ACCOUNT_ID,
      ...callLimits,
      ...(gate ? { gate } : {}),
    },
    x402.facilitatorUrl,
  );
}
