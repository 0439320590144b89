/**
 * @module fair-shares
 * The invariant "no client above its share while another waits", over the deployment's budget
 * object's own record of the leases it answered for clients of the shopper lanes
 * (`BudgetObject.clientLeases`, `test/support/worker-entry.ts`): the object's clock, the
 * client, what it granted and the window those calls count in for the client.
 *
 * What `worker/core/budget/shares.ts` promises, and so what is checked, grant by grant (not
 * per window: a client alone at a window's start may take the whole lane before another asks
 * later in that window, and nothing takes those calls back):
 *
 *   for every lease granting calls to client C at time t, in window W = windowOf(t):
 *     held(C) ≤ max(MIN_SHARE, floor(shopperRate(rate) / active))
 *   where held(C) = the calls granted to C so far (this lease included) counted in W or a
 *   later window (reservations, a window's edge), shopperRate(rate) = rate − max(1, ⌈rate/5⌉)
 *   (8 at 10 a second, 24 at the simulation's 30), and active = the clients that asked in W or
 *   the window before (by t), or hold calls counted in W or later: C among them.
 *
 * Checked only while another client is active (active ≥ 2): alone, a client may take every
 * call nobody else waits for. Whatever a history did, the leases of every history running
 * beside it are in the record too: the budget is the deployment's.
 */
import { MIN_SHARE, shareOf } from "../../worker/core/budget/shares.ts";
import {
  MAX_AHEAD_WINDOWS,
  shopperRate,
  WINDOW_MS,
  windowOf,
} from "../../worker/core/budget/window.ts";
import type { ClientLease } from "../support/worker-entry.ts";
import { deploymentBudget } from "../worker/helpers.ts";

/** How far back a lease may still hold calls in a later window (a reservation's horizon). */
export const LOOKBACK_MS = (MAX_AHEAD_WINDOWS + 2) * WINDOW_MS;

/** A grant above its client's share, in words. */
export interface OverShare {
  at: number;
  client: string;
  held: number;
  share: number;
  active: number;
}

/**
 * The grants made at or after `from` that took their client above its share while another
 * client was active, and how many grants were checked so (`contested`). `leases` in the order
 * the object answered them, reaching back `LOOKBACK_MS` before `from`.
 *
 * @example
 * overShares(await budget.clientLeases(from - LOOKBACK_MS), from); // { over: [], contested: 12 }
 */
export function overShares(
  leases: readonly ClientLease[],
  from: number,
): { over: OverShare[]; contested: number } {
  const over: OverShare[] = [];
  let contested = 0;
  for (const [i, lease] of leases.entries()) {
    if (lease.granted <= 0 || lease.at < from) continue;
    const window = windowOf(lease.at);
    const active = new Set<string>();
    let held = 0;
    for (let j = 0; j <= i; j += 1) {
      const before = leases[j]!;
      const holds = before.granted > 0 && before.window >= window;
      if (before.at >= window - WINDOW_MS || holds) active.add(before.client);
      if (holds && before.client === lease.client) held += before.granted;
    }
    if (active.size < 2) continue;
    contested += 1;
    const share = Math.max(MIN_SHARE, shareOf(shopperRate(lease.rate), active.size));
    if (held > share)
      over.push({ at: lease.at, client: lease.client, held, share, active: active.size });
  }
  return { over, contested };
}

/**
 * The deployment budget's grants since `from` (epoch ms, the object's clock) that broke the
 * fair share.
 *
 * @example
 * const { over } = await fairShareSince(world.startedAt);
 */
export async function fairShareSince(from: number) {
  const leases = await deploymentBudget().clientLeases(from - LOOKBACK_MS);
  return overShares(leases, from);
}
