/**
 * @module
 * The upstream budget's grant rule, as pure functions over one window's counts.
 *
 * Time is cut into fixed one-second windows (epoch-aligned). Each window has `rate` calls
 * (`UPSTREAM_MAX_RPS`, default 10: half a key limit of 20 a second, see the README), and the
 * service counts a call in the second it *lands*, not the one it was granted in.
 *
 * Landing rule: a granted call lands in `[grant time, spendUntil + LANDING_LAG_MS]` (clocks in
 * workerd only lag, never lead: `Date.now()` stands still while JavaScript runs; the lag bound
 * covers the gate's stale clock plus the transit to the service). Every grant's landing interval
 * lies inside the one window it is counted in: `spendUntil` is `LANDING_LAG_MS` before the
 * window's end, and nothing is granted for a window in its last `LANDING_LAG_MS` (its "edge").
 * So the calls landing at the service in any second never exceed `rate`, however late (≤ L) they
 * leave. Cost at the default rate: none in calls per second (each window still grants all
 * `rate`); what an isolate leased but did not spend before the edge is lost to that window (it
 * was counted). A shopper's call asked in a window's edge (one in five of an evenly spread
 * load) is sent at once when this window and the next both have room, counted in both (it
 * lands in one of them: `edgeCall`): two calls spent for one, but only out of room nobody
 * asked for, so no shopper waits up to 200 ms for the next window while the budget is idle;
 * when either is full it waits for a later window (a reservation, below). Reconciliation and
 * webhook refetches always wait. One call of slack per window was rejected: 10 % at 10/s, and
 * it still overflows when two calls straddle an edge.
 *
 * First come, first served (front lanes: `merchant`, `interactive`, `relock`): a front caller
 * that finds no call now gets a reservation: its one call counted in the first later window
 * with room for its lane (`reserved`, `laneCeiling`), to be sent from that window's start
 * (`sendFrom`). So the k-th waiter of a lane is served in the ⌈k/room⌉-th window and nobody
 * starves. Bounded: at most `MAX_AHEAD_WINDOWS` windows ahead and `MAX_RESERVED` calls in all,
 * never a window starting after the caller's deadline; beyond that, an immediate refusal
 * (`granted: 0`, `retryAt` = when a window is free again).
 *
 * Lanes ahead of lanes (`laneCeiling`): a reservation (or an edge call, counted in the next
 * window) is made only while the window holds fewer calls than its lane's ceiling: the rate
 * for the merchant, `reserve(rate)` less for a shopper's open, as much less again for a re-lock.
 * So however many shoppers or re-locks wait, the next window always has room for the merchant
 * (2 calls at 10 a second) and for opens ahead of re-locks (2 more): a merchant call waits at
 * most one window behind shoppers, an open at most one behind re-locks. In the current window
 * a front lane may take every call left while nobody waits in a later window (no call idles
 * for want of a caller); while some do, a newcomer too takes no more than its lane's ceiling
 * of it (no shopper overtakes one that waits: the room left is the merchant's).
 *
 * Fair shares (`cap`): a caller of a shopper lane with a client is granted at most `cap` calls
 * (what its client may still hold, `shares.ts`); with none left it is refused at once
 * (`overShare`), never reserved.
 *
 * Priorities (`budget-rpc.ts`):
 * - front lanes may take every call left in the window (reserved calls included);
 * - `webhook` and `reconcile` leave calls for front ones: `reserve(rate)`, or as many as
 *   front calls took in this window (reserved ones included) or the one before, whichever
 *   is more (they yield to demand); they are never granted ahead;
 * - `reconcile` also stays within `reconcileCap` per window: a 429 from the service halves it
 *   (at least 1) and pauses webhook refetches and reconciliation until the service's
 *   `msBeforeNext` (at most `MAX_PAUSE_MS`); each window that opens after the pause gives
 *   reconciliation one call more, up to its whole share. Interactive calls are never paused:
 *   a shopper's create is worth trying (the service's retry hint is honoured by the client).
 */
import type { BudgetStatus, Lease, Priority } from "./budget-rpc.ts";

/** Length of one budget window. */
export const WINDOW_MS = 1_000;
/**
 * How late a granted call may land at the service after its lease's `spendUntil` (by the
 * gate's clock): the gate's clock lag on a busy runtime thread (`Date.now()` stands still
 * while JavaScript runs; seed 100700 of `npm run simulate` saw a call land more than the old
 * 25 ms margin late on loopback) plus the one-way transit from a Cloudflare location to the
 * service (≈ 20–150 ms across a continent or an ocean). 200 ms covers both with room; it is
 * also a window's "edge", where nothing is granted for that window.
 */
export const LANDING_LAG_MS = 200;
/** Granted calls are sent this long before their window ends at the latest. */
export const SEND_MARGIN_MS = LANDING_LAG_MS;
/** How many windows after the current one front calls may be reserved in. */
export const MAX_AHEAD_WINDOWS = 16;
/** Most calls reserved ahead in all (a bound on a large rate's reservations). */
export const MAX_RESERVED = 1_000;

/**
 * Calls per window kept for front calls (and, in reservations, for each lane ahead of
 * another): a fifth of the rate, at least one.
 *
 * @example
 * reserve(10); // 2
 * reserve(1); // 1
 */
export function reserve(rate: number): number {
  return Math.max(1, Math.ceil(rate / 5));
}

/** What reconciliation may take per window at most: the rate less the reserve (at least 1). */
const share = (rate: number) => Math.max(1, rate - reserve(rate));

/**
 * Most calls a window may already hold for a call of `priority` to be reserved in it (or sent
 * in the edge before it): the whole rate for the merchant, `reserve(rate)` less for a shopper's
 * open, as much less again for a re-lock (at least 1: at a rate of 1 or 2 the lanes are equal).
 * 0 for `webhook` and `reconcile`: they are never reserved.
 *
 * @example
 * laneCeiling("merchant", 10); // 10
 * laneCeiling("interactive", 10); // 8
 * laneCeiling("relock", 10); // 6
 */
export function laneCeiling(priority: Priority, rate: number): number {
  const hold = reserve(rate);
  if (priority === "merchant") return rate;
  if (priority === "interactive") return Math.max(1, rate - hold);
  if (priority === "relock") return Math.max(1, rate - 2 * hold);
  return 0;
}

/**
 * The shopper lanes' rate, shared among their clients (`shares.ts`): what opens may hold of a
 * window.
 *
 * @example
 * shopperRate(10); // 8
 */
export const shopperRate = (rate: number) => laneCeiling("interactive", rate);

/** True for the lanes served at once or reserved a later window. */
export const isFront = (priority: Priority) =>
  priority === "merchant" || priority === "interactive" || priority === "relock";

/** The start of the window `at` falls in. */
export const windowOf = (at: number) => Math.floor(at / WINDOW_MS) * WINDOW_MS;

const none = (): Record<Priority, number> => ({
  merchant: 0,
  interactive: 0,
  relock: 0,
  webhook: 0,
  reconcile: 0,
});

/** Front-lane calls counted in `granted`. */
const front = (granted: Record<Priority, number>) =>
  granted.merchant + granted.interactive + granted.relock;

/**
 * A fresh budget (nothing granted or reserved, no pause).
 *
 * @example
 * const state = emptyBudget(10, Date.now());
 */
export function emptyBudget(rate: number, now: number): BudgetStatus {
  return {
    ratePerSecond: rate,
    windowStart: windowOf(now),
    granted: none(),
    lastInteractive: 0,
    reconcileCap: share(rate),
    pausedUntil: 0,
    reserved: [],
  };
}

/** The budget at `now`: a new window when the old one ended (opening with its reserved calls). */
function roll(state: BudgetStatus, rate: number, now: number): BudgetStatus {
  const start = windowOf(now);
  if (start <= state.windowStart && rate === state.ratePerSecond) return state;
  const fresh = start > state.windowStart;
  const grow = fresh && now >= state.pausedUntil ? 1 : 0;
  const passed = fresh ? (start - state.windowStart) / WINDOW_MS : 0;
  return {
    ratePerSecond: rate,
    windowStart: Math.max(start, state.windowStart),
    granted: fresh ? { ...none(), interactive: state.reserved[passed - 1] ?? 0 } : state.granted,
    lastInteractive: !fresh ? state.lastInteractive : passed === 1 ? front(state.granted) : 0,
    reconcileCap: Math.min(share(rate), state.reconcileCap + grow),
    pausedUntil: state.pausedUntil,
    reserved: state.reserved.slice(passed),
  };
}

/**
 * Grants up to `want` calls of `priority` at `now` (see the module header), at most `cap` (what
 * the caller's client may still hold, `shares.ts`; unlimited by default). A front caller
 * granted nothing now is given one call reserved in the first later window with room for its
 * lane that starts before its `deadline` (`lease.sendFrom`), or a refusal when none is within
 * `MAX_AHEAD_WINDOWS` / `MAX_RESERVED`; a caller whose `cap` is 0 is refused at once
 * (`lease.overShare`).
 *
 * @example
 * const { state: after, lease } = grant(state, "reconcile", 5, 10, Date.now());
 * lease.granted; // ≤ 5, and ≤ 10 - reserve(10) in one window
 */
export function grant(
  before: BudgetStatus,
  priority: Priority,
  want: number,
  rate: number,
  now: number,
  deadline = Number.POSITIVE_INFINITY,
  cap = Number.POSITIVE_INFINITY,
): { state: BudgetStatus; lease: Lease } {
  if (!(Number.isInteger(rate) && rate >= 1)) throw new Error(`budget rate must be ≥ 1: ${rate}`);
  const state = roll(before, rate, now);
  const { granted } = state;
  const end = state.windowStart + WINDOW_MS;
  const spendUntil = end - SEND_MARGIN_MS;
  const paused = now < state.pausedUntil;
  const served = isFront(priority);
  if (served && want >= 1 && cap < 1) {
    // Over its client's share: a refusal, never a reservation (it would hold a later window).
    return {
      state,
      lease: { granted: 0, spendUntil: 0, retryAt: end, sendFrom: 0, overShare: true },
    };
  }
  let room = rate - front(granted) - granted.webhook - granted.reconcile;
  if (!served) {
    const kept = Math.max(reserve(rate), state.lastInteractive, front(granted));
    room = rate - kept - granted.webhook - granted.reconcile;
    if (priority === "reconcile") room = Math.min(room, state.reconcileCap - granted.reconcile);
  }
  const ceiling = laneCeiling(priority, rate);
  // Callers wait in later windows: a newcomer takes no more of this window than its lane's
  // ceiling (it would overtake its own lane's queue; the rest is the lanes' ahead of it).
  if (served && (state.reserved[0] ?? 0) > 0)
    room = Math.min(room, ceiling - front(granted) - granted.webhook - granted.reconcile);
  const edge = now >= spendUntil;
  // The edge: a call granted now could land in the next window, which grants its own calls.
  if (edge && served && want >= 1 && room >= 1 && (state.reserved[0] ?? 0) < ceiling)
    return edgeCall(state, rate, priority);
  if ((paused && !served) || edge) room = 0;
  const given = Math.max(0, Math.min(Math.floor(want), room, cap));
  if (given === 0 && want >= 1 && served) return reserveAhead(state, ceiling, deadline);
  const retryAt = given >= want ? 0 : paused && !served ? Math.max(state.pausedUntil, end) : end;
  return {
    state: { ...state, granted: { ...granted, [priority]: granted[priority] + given } },
    lease: { granted: given, spendUntil, retryAt, sendFrom: 0 },
  };
}

/**
 * A shopper's call asked in a window's edge, sent at once: it lands in this window or the next,
 * so it is counted in both (this window's grants and the next one's reserved calls); its lease
 * runs to the next window's edge. Only when both have room (see `grant`).
 */
function edgeCall(
  state: BudgetStatus,
  rate: number,
  priority: Priority,
): { state: BudgetStatus; lease: Lease } {
  const end = state.windowStart + WINDOW_MS;
  const reserved = state.reserved.length > 0 ? [...state.reserved] : [0];
  reserved[0] = (reserved[0] ?? 0) + 1;
  if (reserved[0] > rate) throw new Error("budget: an edge call over the next window's rate");
  const granted = { ...state.granted, [priority]: state.granted[priority] + 1 };
  const lease = {
    granted: 1,
    sendFrom: 0,
    spendUntil: end + WINDOW_MS - SEND_MARGIN_MS,
    retryAt: 0,
  };
  return { state: { ...state, granted, reserved }, lease };
}

/** One front call counted in the first later window below its lane's `ceiling` (see `grant`). */
function reserveAhead(
  state: BudgetStatus,
  ceiling: number,
  deadline: number,
): { state: BudgetStatus; lease: Lease } {
  const total = state.reserved.reduce((sum, n) => sum + n, 0);
  let ahead = 0;
  while (ahead < MAX_AHEAD_WINDOWS && (state.reserved[ahead] ?? 0) >= ceiling) ahead += 1;
  const start = state.windowStart + (ahead + 1) * WINDOW_MS;
  if (ahead >= MAX_AHEAD_WINDOWS || total >= MAX_RESERVED || start >= deadline) {
    // A refusal: the first window that may have room again (the one after the horizon when
    // it is full; otherwise the free window that starts too late for this caller).
    const lease = { granted: 0, spendUntil: 0, retryAt: start, sendFrom: 0 };
    return { state, lease };
  }
  const reserved = Array.from({ length: Math.max(state.reserved.length, ahead + 1) }, (_, i) =>
    i === ahead ? (state.reserved[i] ?? 0) + 1 : (state.reserved[i] ?? 0),
  );
  const lease = {
    granted: 1,
    spendUntil: start + WINDOW_MS - SEND_MARGIN_MS,
    retryAt: 0,
    sendFrom: start,
  };
  return { state: { ...state, reserved }, lease };
}

/**
 * The service answered 429 with `retryAfterMs`: pause refetches and reconciliation until then
 * and halve what reconciliation may take per window.
 *
 * @example
 * state = rateLimited(state, 1_500, Date.now());
 */
export function rateLimited(state: BudgetStatus, retryAfterMs: number, now: number): BudgetStatus {
  const wait = Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? retryAfterMs : WINDOW_MS;
  return {
    ...state,
    pausedUntil: Math.max(state.pausedUntil, now + Math.min(wait, MAX_PAUSE_MS)),
    reconcileCap: Math.max(1, Math.floor(state.reconcileCap / 2)),
  };
}

/** Longest pause one 429 imposes (a hint beyond it is the service's to enforce). */
export const MAX_PAUSE_MS = 60_000;
