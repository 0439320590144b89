/**
 * The upstream budget's landing rule (`worker/core/budget/window.ts`): the service counts a call
 * in the second it arrives, so a call granted in one window and sent at the last moment its
 * lease allows, arriving late (the gate's clock stands still while JavaScript runs, then the
 * transit), must still arrive in the window it was counted in. Seed 100700 of
 * `npm run simulate` saw 31 calls in a second of a budget of 30 so.
 */
import { describe, expect, it } from "vitest";
import type { BudgetStatus, Lease, Priority } from "../../worker/core/budget/budget-rpc.ts";
import { emptyBudget, grant, WINDOW_MS } from "../../worker/core/budget/window.ts";

const RATE = 10;
const T0 = 1_000_000; // a window start
/** How late a call arrives after its lease's `spendUntil` here: clock lag plus transit. */
const LATE_MS = 150;

/** Calls that may arrive in each window, every call taken at its worst (early or late). */
class Arrivals {
  readonly perWindow = new Map<number, number>();
  add(lease: Lease, now: number): void {
    if (lease.granted === 0) return;
    const first = Math.floor(Math.max(now, lease.sendFrom || 0) / WINDOW_MS);
    const last = Math.floor((lease.spendUntil + LATE_MS) / WINDOW_MS);
    for (let w = first; w <= last; w += 1)
      this.perWindow.set(w, (this.perWindow.get(w) ?? 0) + lease.granted);
  }
  get busiest(): number {
    return Math.max(0, ...this.perWindow.values());
  }
}

/** A small seeded generator (mulberry32): the same schedule every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe("upstream budget: calls land in the window they were counted in", () => {
  it("a call granted near a window's end and arriving 150 ms late does not make the next second exceed the rate", () => {
    let state: BudgetStatus = emptyBudget(RATE, T0);
    const arrivals = new Arrivals();
    const ask = (priority: Priority, want: number, now: number) => {
      const r = grant(state, priority, want, RATE, now);
      state = r.state;
      arrivals.add(r.lease, now);
      return r.lease;
    };
    ask("interactive", RATE - 1, T0 + 10);
    // 30 ms before the window's end: granted (and sent at once) before the fix, arriving in the
    // next second…
    ask("interactive", 1, T0 + WINDOW_MS - 30);
    // …whose whole rate is granted at its start.
    ask("interactive", RATE, T0 + WINDOW_MS + 5);
    expect(arrivals.busiest).toBeLessThanOrEqual(RATE);
  });

  it("whatever the mix of priorities and moments, no second sees more than the rate arrive", () => {
    const random = seeded(100_700);
    let state: BudgetStatus = emptyBudget(RATE, T0);
    const arrivals = new Arrivals();
    const priorities: Priority[] = ["interactive", "webhook", "reconcile"];
    let now = T0;
    let granted = 0;
    for (let i = 0; i < 3_000; i += 1) {
      now += Math.floor(random() * 40);
      const priority = priorities[Math.floor(random() * 3)]!;
      const r = grant(state, priority, 1 + Math.floor(random() * 4), RATE, now);
      state = r.state;
      arrivals.add(r.lease, now);
      granted += r.lease.granted;
    }
    expect(arrivals.busiest).toBeLessThanOrEqual(RATE);
    // The budget was used, not merely refused: most windows gave out their whole rate.
    const windows = Math.ceil((now - T0) / WINDOW_MS);
    expect(granted).toBeGreaterThan(0.8 * RATE * windows);
  });
});
