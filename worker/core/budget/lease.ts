/**
 * @module
 * One lease as the budget object answers it: the request's bounds, the client's fair share of
 * the shopper lanes (`shares.ts`), then the window's rule (`window.ts`). Pure but for the
 * client table it updates in place, so tests drive it without the object.
 *
 * Invariant: a call with a client is counted in that client's share in the window its lease
 * may be spent in last (`windowOf(spendUntil)`), so what it holds frees when that window ends.
 */
import {
  type BudgetStatus,
  type Lease,
  type LeaseRequest,
  MAX_CLIENT_KEY,
  SHOPPER_LANES,
} from "./budget-rpc.ts";
import type { ClientShares } from "./shares.ts";
import { emptyBudget, grant, shopperRate, windowOf } from "./window.ts";

/** Most calls one lease may ask for (a bound on what a caller can hold unused). */
export const MAX_LEASE = 100;

/**
 * The lease `input` gets at `now` from `state` (null: a fresh budget), and the state after.
 *
 * @example
 * const { state, lease } = leaseFor(this.#state, this.#shares, input, Date.now());
 */
export function leaseFor(
  before: BudgetStatus | null,
  shares: ClientShares,
  input: LeaseRequest,
  now: number,
): { state: BudgetStatus; lease: Lease } {
  const want = Math.min(MAX_LEASE, Math.max(1, Math.floor(input.want)));
  const deadline =
    typeof input.deadline === "number" && !Number.isNaN(input.deadline)
      ? input.deadline
      : Number.POSITIVE_INFINITY;
  const client =
    typeof input.client === "string" && input.client && SHOPPER_LANES.includes(input.priority)
      ? input.client.slice(0, MAX_CLIENT_KEY)
      : null;
  const rate = input.ratePerSecond;
  const cap =
    client === null ? Number.POSITIVE_INFINITY : shares.room(client, shopperRate(rate), now);
  const start = before ?? emptyBudget(rate, now);
  const { state, lease } = grant(start, input.priority, want, rate, now, deadline, cap);
  if (client === null) return { state, lease };
  if (lease.granted > 0) shares.take(client, windowOf(lease.spendUntil), lease.granted, now);
  if (lease.overShare) return { state, lease: { ...lease, retryAt: shares.freedAt(client, now) } };
  return { state, lease };
}
