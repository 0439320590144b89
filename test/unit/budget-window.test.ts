/**
 * The upstream budget's grant rule (`worker/core/budget/window.ts`): one window's calls never exceed
 * the rate, interactive calls first, reconciliation last and yielding to interactive demand, a
 * 429 pauses every grant and halves reconciliation, which then grows back one call a window.
 */
import { describe, expect, it } from "vitest";
import type { BudgetStatus, Priority } from "../../worker/core/budget/budget-rpc.ts";
import {
  emptyBudget,
  grant,
  rateLimited,
  reserve,
  SEND_MARGIN_MS,
  WINDOW_MS,
} from "../../worker/core/budget/window.ts";

const RATE = 10;
const T0 = 1_000_000; // a window start

/** Grants `want` calls of each priority in turn; answers how many each got. */
function take(state: BudgetStatus, asks: [Priority, number][], now: number) {
  const got: number[] = [];
  for (const [priority, want] of asks) {
    const r = grant(state, priority, want, RATE, now);
    state = r.state;
    got.push(r.lease.granted);
  }
  return { state, got };
}

/** A budget at T0 with room in its window and the next window wholly reserved. */
function nextWindowBooked(rate: number) {
  return { ...emptyBudget(rate, T0), reserved: [rate] };
}

describe("upstream budget window", () => {
  it("never grants more than the rate in one window, whatever the mix of priorities", () => {
    let state = emptyBudget(RATE, T0);
    let total = 0;
    for (let i = 0; i < 50; i += 1) {
      const priority = (["interactive", "webhook", "reconcile"] as const)[i % 3]!;
      const r = grant(state, priority, 3, RATE, T0 + i);
      state = r.state;
      // An interactive caller refused now is reserved a later window (see below), not this one.
      if (r.lease.sendFrom === 0) total += r.lease.granted;
      else expect(r.lease.sendFrom).toBeGreaterThanOrEqual(T0 + WINDOW_MS);
    }
    expect(total).toBe(RATE);
  });

  it("reconciliation leaves the interactive reserve; interactive may take every call", () => {
    const { got } = take(
      emptyBudget(RATE, T0),
      [
        ["reconcile", 100],
        ["interactive", 100],
      ],
      T0 + 10,
    );
    expect(reserve(RATE)).toBe(2);
    expect(got).toEqual([RATE - 2, 2]);
    // Interactive first: reconciliation finds nothing left.
    const first = take(
      emptyBudget(RATE, T0),
      [
        ["interactive", 100],
        ["reconcile", 1],
      ],
      T0 + 10,
    );
    expect(first.got).toEqual([RATE, 0]);
  });

  it("reconciliation yields to the interactive demand of the window before", () => {
    // 7 interactive calls in one window…
    const busy = take(emptyBudget(RATE, T0), [["interactive", 7]], T0 + 10).state;
    // …so in the next, reconciliation leaves 7 for them, not only the reserve of 2.
    const next = take(busy, [["reconcile", 100]], T0 + WINDOW_MS + 10);
    expect(next.got).toEqual([3]);
    // Two quiet windows later the demand is forgotten.
    const later = take(next.state, [["reconcile", 100]], T0 + 3 * WINDOW_MS + 10);
    expect(later.got).toEqual([RATE - 2]);
  });

  it("leases expire before their window ends and say when to ask again", () => {
    const full = grant(emptyBudget(RATE, T0), "interactive", RATE, RATE, T0 + 5);
    expect(full.lease).toEqual({
      granted: RATE,
      sendFrom: 0,
      spendUntil: T0 + WINDOW_MS - SEND_MARGIN_MS,
      retryAt: 0,
    });
    const none = grant(full.state, "webhook", 1, RATE, T0 + 6);
    expect(none.lease.granted).toBe(0);
    expect(none.lease.retryAt).toBe(T0 + WINDOW_MS);
    // Past the send margin nothing is granted in the old window alone: an interactive caller
    // of a full window is reserved the next one (one with room: `edgeCall`, below), a
    // reconciliation read is told to ask again then.
    const late = grant(full.state, "interactive", 1, RATE, T0 + WINDOW_MS - 10);
    expect(late.lease).toMatchObject({ granted: 1, sendFrom: T0 + WINDOW_MS });
    const lateRead = grant(emptyBudget(RATE, T0), "reconcile", 1, RATE, T0 + WINDOW_MS - 10);
    expect(lateRead.lease).toMatchObject({ granted: 0, retryAt: T0 + WINDOW_MS });
  });

  it("a shopper asking in a window's edge is sent at once when this window and the next have room, counted in both; else reserved", () => {
    const edge = T0 + WINDOW_MS - 10;
    const early = grant(emptyBudget(RATE, T0), "interactive", RATE - 1, RATE, T0 + 5);
    const call = grant(early.state, "interactive", 3, RATE, edge);
    // One call (not the 3 asked), to be sent now, until the next window's edge.
    expect(call.lease).toEqual({
      granted: 1,
      sendFrom: 0,
      spendUntil: T0 + 2 * WINDOW_MS - SEND_MARGIN_MS,
      retryAt: 0,
    });
    expect(call.state.granted.interactive).toBe(RATE);
    expect(call.state.reserved).toEqual([1]);
    // The next window opens with that call counted: RATE - 1 left.
    const next = grant(call.state, "interactive", RATE, RATE, T0 + WINDOW_MS + 5);
    expect(next.lease.granted).toBe(RATE - 1);
    // This window full (the last call went to the edge one): the next shopper is reserved.
    const after = grant(call.state, "interactive", 1, RATE, edge + 1);
    expect(after.lease).toMatchObject({ granted: 1, sendFrom: T0 + WINDOW_MS });
    // The next window full of reservations: an edge shopper is reserved the one after.
    let booked = nextWindowBooked(RATE);
    const queued = grant(booked, "interactive", 1, RATE, edge);
    expect(queued.lease).toMatchObject({ granted: 1, sendFrom: T0 + 2 * WINDOW_MS });
    // Webhook refetches and reconciliation never take an edge call.
    booked = emptyBudget(RATE, T0);
    expect(grant(booked, "webhook", 1, RATE, edge).lease.granted).toBe(0);
  });

  it("a 429 pauses refetches and reconciliation until msBeforeNext, halves reconciliation, which grows back; shoppers go on", () => {
    let state = rateLimited(emptyBudget(RATE, T0), 2_500, T0 + 100);
    expect(state.pausedUntil).toBe(T0 + 2_600);
    expect(state.reconcileCap).toBe(4); // (10 - 2) / 2
    for (const priority of ["webhook", "reconcile"] as const) {
      const paused = grant(state, priority, 1, RATE, T0 + 1_500);
      expect(paused.lease).toMatchObject({ granted: 0, retryAt: T0 + 2_600 });
    }
    expect(grant(state, "interactive", 1, RATE, T0 + 1_500).lease.granted).toBe(1);
    // The first window after the pause: one more than half.
    const after = grant(state, "reconcile", 100, RATE, T0 + 3_000);
    expect(after.lease.granted).toBe(5);
    state = after.state;
    for (let w = 4; w < 12; w += 1)
      state = grant(state, "reconcile", 100, RATE, T0 + w * WINDOW_MS).state;
    // Back to its whole share, never beyond.
    expect(state.reconcileCap).toBe(RATE - 2);
    // A second 429 halves again (at least one call a window is kept).
    for (let i = 0; i < 10; i += 1) state = rateLimited(state, 10, T0 + 12_000);
    expect(state.reconcileCap).toBe(1);
  });

  it("refuses a rate that is not a whole number ≥ 1", () => {
    expect(() => grant(emptyBudget(1, T0), "interactive", 1, 0, T0)).toThrow(/rate/);
  });
});
