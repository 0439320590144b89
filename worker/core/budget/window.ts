/**
 * @module
 * The upstream budget's grant rule, as pure functions over one window's counts.
 *
 * Time is cut into fixed one-second windows (epoch-aligned). Each window has `rate` calls
 * (`UPSTREAM_MAX_RPS`); a call granted in a window may only be sent until `SEND_MARGIN_MS`
 * before its end, so the deployment's calls per window never exceed `rate` at the service
 * either.
 *
 * Priorities (`budget-rpc.ts`):
 * - `interactive` may take every call left in the window;
 * - `webhook` and `reconcile` leave calls for interactive ones: `reserve(rate)`, or as many as
 *   interactive calls took in this window or the one before, whichever is more (they yield to
 *   demand);
 * - `reconcile` also stays within `reconcileCap` per window: a 429 from the service halves it
 *   (at least 1) and pauses webhook refetches and reconciliation until the service's
 *   `msBeforeNext` (at most `MAX_PAUSE_MS`); each window that opens after the pause gives
 *   reconciliation one call more, up to its whole share. Interactive calls are never paused:
 *   a shopper's create is worth trying (the service's retry hint is honoured by the client).
 */
import type { BudgetStatus, Lease, Priority } from "./budget-rpc.ts";

/** Length of one budget window. */
export const WINDOW_MS = 1_000;
/** Granted calls are sent this long before their window ends at the latest. */
export const SEND_MARGIN_MS = 25;

/**
 * Calls per window kept for interactive calls: a fifth of the rate, at least one.
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

const windowOf = (now: number) => Math.floor(now / WINDOW_MS) * WINDOW_MS;
const none = (): Record<Priority, number> => ({ interactive: 0, webhook: 0, reconcile: 0 });

/**
 * A fresh budget (nothing granted, no pause).
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
  };
}

/** The budget at `now`: a new window when the old one ended. */
function roll(state: BudgetStatus, rate: number, now: number): BudgetStatus {
  const start = windowOf(now);
  if (start <= state.windowStart && rate === state.ratePerSecond) return state;
  const fresh = start > state.windowStart;
  const grow = fresh && now >= state.pausedUntil ? 1 : 0;
  return {
    ratePerSecond: rate,
    windowStart: Math.max(start, state.windowStart),
    granted: fresh ? none() : state.granted,
    lastInteractive: !fresh
      ? state.lastInteractive
      : start - state.windowStart === WINDOW_MS
        ? state.granted.interactive
        : 0,
    reconcileCap: Math.min(share(rate), state.reconcileCap + grow),
    pausedUntil: state.pausedUntil,
  };
}

/**
 * Grants up to `want` calls of `priority` at `now` (see the module header).
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
): { state: BudgetStatus; lease: Lease } {
  if (!(Number.isInteger(rate) && rate >= 1)) throw new Error(`budget rate must be ≥ 1: ${rate}`);
  const state = roll(before, rate, now);
  const { granted } = state;
  const end = state.windowStart + WINDOW_MS;
  const spendUntil = end - SEND_MARGIN_MS;
  const paused = now < state.pausedUntil;
  let room = rate - granted.interactive - granted.webhook - granted.reconcile;
  if (priority !== "interactive") {
    const kept = Math.max(reserve(rate), state.lastInteractive, granted.interactive);
    room = rate - kept - granted.webhook - granted.reconcile;
    if (priority === "reconcile") room = Math.min(room, state.reconcileCap - granted.reconcile);
  }
  if ((paused && priority !== "interactive") || now >= spendUntil) room = 0;
  const given = Math.max(0, Math.min(Math.floor(want), room));
  const retryAt =
    given >= want
      ? 0
      : paused && priority !== "interactive"
        ? Math.max(state.pausedUntil, end)
        : end;
  return {
    state: { ...state, granted: { ...granted, [priority]: granted[priority] + given } },
    lease: { granted: given, spendUntil, retryAt },
  };
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
