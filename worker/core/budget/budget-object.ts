/**
 * @module
 * `BudgetObject`: the deployment's one upstream budget per service account (named by
 * `accountKey`: service base URL + account id). Every isolate asks it for short leases of calls
 * (`gate.ts`), so the whole deployment's calls to the service stay within `UPSTREAM_MAX_RPS`
 * per second: the merchant first, shoppers' opens before their re-locks, reconciliation last
 * (`window.ts`), and the shopper lanes shared fairly among clients (`shares.ts`).
 *
 * Memory only: the counts of one second and the calls reserved in the next `MAX_AHEAD_WINDOWS`
 * (16 s) are all it needs, with the calls each active client holds (bounded: `MAX_CLIENTS`,
 * pruned once a window). An object is evicted only after being idle far longer than that,
 * and then starts with an empty window, which is right, since nobody took calls in it.
 * Cost per lease: O(windows ahead), plus O(active clients) once per window.
 */
import { DurableObject } from "cloudflare:workers";
import type { CoreEnv } from "../config/core-env.ts";
import type { BudgetRpc, BudgetStatus, Lease, LeaseRequest } from "./budget-rpc.ts";
import { leaseFor } from "./lease.ts";
import { ClientShares } from "./shares.ts";
import { emptyBudget, rateLimited } from "./window.ts";

export { MAX_LEASE } from "./lease.ts";

export class BudgetObject extends DurableObject<CoreEnv> implements BudgetRpc {
  #state: BudgetStatus | null = null;
  readonly #shares = new ClientShares();

  /**
   * Up to `want` calls of `priority` for this window, or a front caller's call reserved in a
   * later window before its `deadline` (`window.ts` decides); in a shopper lane with a
   * `client`, never more than that client's fair share (`shares.ts`).
   *
   * @example
   * const lease = await budgetStub(env, key).lease({ priority: "interactive", want: 1, ratePerSecond: 10, client });
   */
  async lease(input: LeaseRequest): Promise<Lease> {
    const { state, lease } = leaseFor(this.#state, this.#shares, input, Date.now());
    this.#state = state;
    return lease;
  }

  /** The service answered 429: pause grants and slow reconciliation (`window.ts`). */
  async rateLimited(retryAfterMs: number): Promise<void> {
    const now = Date.now();
    this.#state = rateLimited(this.#state ?? emptyBudget(1, now), retryAfterMs, now);
  }

  /** The counts now (tests and the doctor). */
  async status(): Promise<BudgetStatus> {
    const now = Date.now();
    return { ...(this.#state ?? emptyBudget(1, now)), clients: this.#shares.active(now) };
  }
}
