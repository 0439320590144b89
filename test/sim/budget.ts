/**
 * @module budget
 * The invariant over the whole deployment, not one order: the worker's calls to the service per
 * second (the sandbox's request log, counted per epoch second, as the budget's windows are)
 * never exceed `UPSTREAM_MAX_RPS`. Histories run side by side, so a second's count holds every
 * order's calls: what the service's per-key limit sees. The facilitator's calls (`/x402/verify`,
 * `/x402/settle`) and the settlement reads (`/x402/settlements`) are the worker's calls to the
 * service too, through the same budget gate, and counted alike. Only calls with the API key
 * count: the simulation's own keyless requests that spend an x402 fault its history armed
 * and never reached (`x402.ts`) are not the worker's.
 */
import { env } from "cloudflare:workers";
import { admin } from "./service.ts";

/** The budget the simulation's worker runs with (vitest.config.mts, the sim project). */
export const SIM_BUDGET = Number(env.UPSTREAM_MAX_RPS);

/**
 * The busiest second of the deployment's calls since `since` (epoch ms).
 * @example
 * const { calls } = await busiestSecond(world.startedAt); // ≤ SIM_BUDGET
 */
export async function busiestSecond(since: number): Promise<{ calls: number; at: string }> {
  const { body } = await admin<{ data: { at: string; authorized: boolean }[] }>(
    `/sandbox/requests?since=${encodeURIComponent(new Date(since).toISOString())}`,
  );
  const counts = new Map<number, number>();
  for (const r of body.data) {
    if (!r.authorized) continue;
    const second = Math.floor(Date.parse(r.at) / 1000);
    counts.set(second, (counts.get(second) ?? 0) + 1);
  }
  let best = { calls: 0, at: "" };
  for (const [second, calls] of counts)
    if (calls > best.calls) best = { calls, at: new Date(second * 1000).toISOString() };
  return best;
}
