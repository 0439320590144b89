/**
 * First come, first served for interactive callers (`worker/core/budget/window.ts`): a shopper's
 * call the budget cannot serve now is reserved the first later window with room, so waiters are
 * served in the order they asked and none waits past its place in the queue; reservations are
 * bounded (windows ahead, calls in all, the caller's deadline) and refused clearly beyond that;
 * refetches and reconciliation never get calls reserved for shoppers. Shoppers' reservations
 * fill a window only up to their lane's ceiling (`laneCeiling`: the merchant's room is kept).
 */
import { describe, expect, it } from "vitest";
import type { BudgetStatus, Lease, Priority } from "../../worker/core/budget/budget-rpc.ts";
import {
  emptyBudget,
  grant,
  laneCeiling,
  MAX_AHEAD_WINDOWS,
  MAX_RESERVED,
  SEND_MARGIN_MS,
  WINDOW_MS,
} from "../../worker/core/budget/window.ts";

const RATE = 10;
const T0 = 1_000_000; // a window start
/** Shoppers' calls reserved per window at most: 8 at 10 a second (2 kept for the merchant). */
const ROOM = laneCeiling("interactive", RATE);

/** A budget the tests ask in turn, keeping its state. */
function budget(rate = RATE, start = T0) {
  let state: BudgetStatus = emptyBudget(rate, start);
  return {
    ask(priority: Priority, want: number, now: number, deadline?: number): Lease {
      const r = grant(state, priority, want, rate, now, deadline);
      state = r.state;
      return r.lease;
    },
    get state() {
      return state;
    },
  };
}

describe("upstream budget: waiting shoppers are served first come, first served", () => {
  it("100 shoppers refused in one window at rate 10: the k-th is reserved window ⌈k/8⌉, in the order they asked", () => {
    const b = budget();
    expect(b.ask("interactive", RATE, T0 + 10).granted).toBe(RATE); // the window is taken
    for (let k = 1; k <= 100; k += 1) {
      const lease = b.ask("interactive", 1, T0 + 20 + k);
      const window = Math.ceil(k / ROOM);
      expect(lease).toEqual({
        granted: 1,
        sendFrom: T0 + window * WINDOW_MS,
        spendUntil: T0 + (window + 1) * WINDOW_MS - SEND_MARGIN_MS,
        retryAt: 0,
      });
    }
    // A shopper asking later (in the next window) queues behind all of them.
    expect(b.ask("interactive", 1, T0 + WINDOW_MS + 5).sendFrom).toBe(
      T0 + Math.ceil(101 / ROOM) * WINDOW_MS,
    );
    // The reserved calls are counted in their windows: nothing is left there for anyone but
    // the merchant, whose room shoppers' reservations never take.
    expect(b.state.granted.interactive).toBe(ROOM);
    expect(b.ask("merchant", 100, T0 + WINDOW_MS + 6).granted).toBe(RATE - ROOM);
    expect(b.ask("webhook", 1, T0 + WINDOW_MS + 6).granted).toBe(0);
    expect(b.ask("reconcile", 1, T0 + WINDOW_MS + 7).granted).toBe(0);
  });

  it("shoppers arriving faster than the rate for 6 s are served in arrival order, each within ⌈place in the queue / 8⌉ windows", () => {
    const b = budget();
    let lastSend = 0;
    let waiting = 0; // shoppers reserved a window still to come when the next one asks
    const served: { asked: number; sendFrom: number }[] = [];
    for (let i = 0; i < 90; i += 1) {
      const now = T0 + Math.floor((i * WINDOW_MS) / 15) + 3; // 15 a second
      const lease = b.ask("interactive", 1, now);
      expect(lease.granted).toBe(1);
      const sendAt = Math.max(now, lease.sendFrom);
      expect(sendAt).toBeGreaterThanOrEqual(lastSend); // nobody overtakes an earlier shopper
      lastSend = sendAt;
      served.push({ asked: now, sendFrom: lease.sendFrom });
      waiting = served.filter((s) => s.sendFrom > now).length;
      const windowsWaited = Math.floor(sendAt / WINDOW_MS) - Math.floor(now / WINDOW_MS);
      expect(windowsWaited).toBeLessThanOrEqual(Math.ceil(waiting / ROOM));
    }
  });

  it("reserves no window starting after the caller's deadline, and none beyond the horizon: a clear refusal with when to ask again", () => {
    const b = budget(1);
    expect(b.ask("interactive", 1, T0 + 10).granted).toBe(1);
    const deadline = T0 + 2_500;
    expect(b.ask("interactive", 1, T0 + 20, deadline).sendFrom).toBe(T0 + WINDOW_MS);
    expect(b.ask("interactive", 1, T0 + 30, deadline).sendFrom).toBe(T0 + 2 * WINDOW_MS);
    const late = b.ask("interactive", 1, T0 + 40, deadline);
    expect(late).toMatchObject({ granted: 0, retryAt: T0 + 3 * WINDOW_MS });
    // Without a deadline: reserved up to MAX_AHEAD_WINDOWS ahead, then refused.
    for (let w = 3; w <= MAX_AHEAD_WINDOWS; w += 1)
      expect(b.ask("interactive", 1, T0 + 50).sendFrom).toBe(T0 + w * WINDOW_MS);
    const beyond = b.ask("interactive", 1, T0 + 60);
    expect(beyond).toMatchObject({ granted: 0, retryAt: T0 + (MAX_AHEAD_WINDOWS + 1) * WINDOW_MS });
    expect(b.state.reserved).toHaveLength(MAX_AHEAD_WINDOWS);
  });

  it("holds at most MAX_RESERVED calls reserved at once, whatever the rate", () => {
    const rate = 1_000;
    const b = budget(rate);
    expect(b.ask("interactive", rate, T0 + 10).granted).toBe(rate);
    for (let i = 0; i < MAX_RESERVED; i += 1)
      expect(b.ask("interactive", 1, T0 + 20).granted).toBe(1);
    expect(b.ask("interactive", 1, T0 + 30).granted).toBe(0);
    expect(b.state.reserved.reduce((a, n) => a + n, 0)).toBe(MAX_RESERVED);
  });

  it("reservations take no call refetches and reconciliation may have: those keep the rule of the window", () => {
    const b = budget();
    b.ask("interactive", RATE, T0 + 10);
    for (let k = 0; k < 3; k += 1) b.ask("interactive", 1, T0 + 20); // 3 reserved in window 1
    // Window 1 opens with 3 interactive calls counted: reconciliation leaves max(reserve 2,
    // last window's 10 interactive) for shoppers, as it did before reservations.
    expect(b.ask("reconcile", 100, T0 + WINDOW_MS + 5).granted).toBe(0);
    expect(b.ask("interactive", 100, T0 + WINDOW_MS + 6).granted).toBe(RATE - 3);
    // Two quiet windows on, reconciliation has its whole share again.
    expect(b.ask("reconcile", 100, T0 + 3 * WINDOW_MS + 5).granted).toBe(RATE - 2);
    // A webhook or reconciliation read refused is never reserved ahead.
    const refused = b.ask("webhook", 1, T0 + 3 * WINDOW_MS + 6);
    expect(refused).toMatchObject({ granted: 0, sendFrom: 0, retryAt: T0 + 4 * WINDOW_MS });
    expect(b.state.reserved).toEqual([]);
  });
});
