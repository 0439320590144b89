/**
 * @module
 * `BudgetObject`: the deployment's one upstream budget per service account (named by
 * `accountKey`: service base URL + account id). Every isolate asks it for short leases of calls
 * (`gate.ts`), so the whole deployment's calls to the service stay within `UPSTREAM_MAX_RPS`
 * per second, shopper-facing calls first and reconciliation last (`window.ts`).
 *
 * Memory only: the counts of one second and the calls reserved in the next `MAX_AHEAD_WINDOWS`
 * (16 s) are all it needs. An object is evicted only after being idle far longer than that,
 * and then starts with an empty window, which is right, since nobody took calls in it.
 */
import { DurableObject } from "cloudflare:workers";
import type { CoreEnv } from "../config/core-env.ts";
import type { BudgetRpc, BudgetStatus, Lease, LeaseRequest } from "./budget-rpc.ts";
import { emptyBudget, grant, rateLimited } from "./window.ts";

/** Most calls one lease may ask for (a bound on what a caller can hold unused). */
export const MAX_LEASE = 100;

export class BudgetObject extends DurableObject<CoreEnv> implements BudgetRpc {
  #state: BudgetStatus | null = null;

  /**
   * Up to `want` calls of `priority` for this window, or an interactive caller's call reserved
   * in a later window before its `deadline` (`window.ts` decides).
   *
   * @example
   * const lease = await budgetStub(env, key).lease({ priority: "interactive", want: 1, ratePerSecond: 10 });
   */
  async lease(input: LeaseRequest): Promise<Lease> {
    const want = Math.min(MAX_LEASE, Math.max(1, Math.floor(input.want)));
    const now = Date.now();
    const deadline =
      typeof input.deadline === "number" && !Number.isNaN(input.deadline)
        ? input.deadline
        : Number.POSITIVE_INFINITY;
    const { state, lease } = grant(
      this.#state ?? emptyBudget(input.ratePerSecond, now),
      input.priority,
      want,
      input.ratePerSecond,
      now,
      deadline,
    );
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
    return this.#state ?? emptyBudget(1, Date.now());
  }
}
