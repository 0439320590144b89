/**
 * @module
 * What every isolate may ask the deployment's upstream budget (`BudgetObject`, one per service
 * account) through its stub, without importing the class (`Env` names `BUDGETS` by it).
 */

/**
 * Who a call to the service is for, first to last: `interactive` (a shopper's create or lock, a
 * merchant's quote or commit, the currency lists a widget shows, the doctor), `webhook` (a
 * delivery's refetch: the service redelivers on our 503), `reconcile` (reads nobody waits for;
 * they yield to everything else).
 */
export type Priority = "interactive" | "webhook" | "reconcile";

/** Every priority, first to last. */
export const PRIORITIES: readonly Priority[] = ["interactive", "webhook", "reconcile"];

/**
 * A lease of calls: how many may be sent, from and until when, and when to ask again if too
 * few. A reservation (an interactive caller's one call in a later window) has `sendFrom` > now.
 */
export interface Lease {
  /** Calls granted (0 when the budget has none for this priority now nor reserved later). */
  granted: number;
  /** Epoch ms from which the granted calls may be sent (0: at once; else a reservation). */
  sendFrom: number;
  /** Epoch ms after which the granted calls may no longer be sent (the edge of their window). */
  spendUntil: number;
  /** Epoch ms when asking again may be granted more; 0 when everything asked was granted. */
  retryAt: number;
}

/** What the budget holds now (tests, the doctor). */
export interface BudgetStatus {
  ratePerSecond: number;
  windowStart: number;
  granted: Record<Priority, number>;
  /** Interactive calls granted in the window before (the demand the others yield to). */
  lastInteractive: number;
  /** Calls per window reconciliation may take now (halved by each 429, +1 per quiet window). */
  reconcileCap: number;
  /** Epoch ms until which only interactive calls are granted (the service said 429). */
  pausedUntil: number;
  /** Interactive calls reserved in each window after `windowStart` (first come, first served). */
  reserved: number[];
}

/** What a caller asks the budget for; `deadline` (epoch ms): reserve no window starting later. */
export interface LeaseRequest {
  priority: Priority;
  want: number;
  ratePerSecond: number;
  deadline?: number;
}

/** The budget's RPC methods (see `budget-object.ts`). */
export interface BudgetRpc extends Rpc.DurableObjectBranded {
  lease(input: LeaseRequest): Promise<Lease>;
  rateLimited(retryAfterMs: number): Promise<void>;
  status(): Promise<BudgetStatus>;
}
