/**
 * @module
 * What every isolate may ask the deployment's upstream budget (`BudgetObject`, one per service
 * account) through its stub, without importing the class (`Env` names `BUDGETS` by it).
 */

/**
 * Who a call to the service is for, first to last (the lanes of `window.ts`):
 * - `merchant`: the merchant's own calls (the doctor, a payout's or refund's quote and commit):
 *   one caller, never many, so it goes ahead of every shopper;
 * - `interactive`: a shopper opening a checkout (the create, a retry's create, a top-up, the
 *   first currency lock), the currency lists a widget shows, an x402 payment;
 * - `relock`: a shopper changing the currency already locked (the one call a client can repeat
 *   at will: it queues behind opens, and is limited per client, `edge/http/limits.ts`);
 * - `webhook`: a delivery's refetch (the service redelivers on our 503);
 * - `reconcile`: reads nobody waits for; they yield to everything else.
 * The first three are "front" lanes: served at once or reserved a later window.
 */
export type Priority = "merchant" | "interactive" | "relock" | "webhook" | "reconcile";

/** Every priority, first to last. */
export const PRIORITIES: readonly Priority[] = [
  "merchant",
  "interactive",
  "relock",
  "webhook",
  "reconcile",
];

/** The shopper lanes: the only ones whose calls are shared fairly among clients (`shares.ts`). */
export const SHOPPER_LANES: readonly Priority[] = ["interactive", "relock"];

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
  /**
   * True on a refusal because the caller's client already holds its fair share of the shopper
   * lanes (`shares.ts`): not "the service is busy" but "this client asks too much"; `retryAt`
   * is when one of its calls frees.
   */
  overShare?: boolean;
}

/** What the budget holds now (tests, the doctor). */
export interface BudgetStatus {
  ratePerSecond: number;
  windowStart: number;
  /**
   * Calls granted in this window, by lane; reserved calls are counted under `interactive`
   * when their window opens, whichever front lane reserved them.
   */
  granted: Record<Priority, number>;
  /** Front-lane calls granted in the window before (the demand the others yield to). */
  lastInteractive: number;
  /** Calls per window reconciliation may take now (halved by each 429, +1 per quiet window). */
  reconcileCap: number;
  /** Epoch ms until which only interactive calls are granted (the service said 429). */
  pausedUntil: number;
  /** Front-lane calls reserved in each window after `windowStart` (first come, first served). */
  reserved: number[];
  /** Clients of the shopper lanes active now (`shares.ts`; 0 in a pure `window.ts` state). */
  clients?: number;
}

/** What a caller asks the budget for; `deadline` (epoch ms): reserve no window starting later. */
export interface LeaseRequest {
  priority: Priority;
  want: number;
  ratePerSecond: number;
  deadline?: number;
  /**
   * Who the call is for, in the shopper lanes: an opaque key (the client's address, hashed by
   * the edge, `edge/http/client-key.ts`; at most `MAX_CLIENT_KEY` characters). Calls with a
   * client are shared fairly among clients (`shares.ts`); without one (the currency lists,
   * the merchant) they are not limited per client.
   */
  client?: string;
}

/** Longest client key the budget keeps (a longer one is cut). */
export const MAX_CLIENT_KEY = 64;

/** The budget's RPC methods (see `budget-object.ts`). */
export interface BudgetRpc extends Rpc.DurableObjectBranded {
  lease(input: LeaseRequest): Promise<Lease>;
  rateLimited(retryAfterMs: number): Promise<void>;
  status(): Promise<BudgetStatus>;
}
