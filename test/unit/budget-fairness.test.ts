/**
 * Fairness in the one upstream budget (`worker/core/budget/lease.ts`, `shares.ts`,
 * `window.ts`), counted in budget windows, never in wall-clock time: a client re-locking in a
 * loop from many checkouts holds no more than its share while another client waits; a
 * victim's create and first lock are served within one window of asking; the merchant's call
 * goes ahead of every shopper; opens go ahead of re-locks; an honest shopper switching a few
 * times is never refused; the client table stays bounded.
 */
import { describe, expect, it } from "vitest";
import type { BudgetStatus, Lease, Priority } from "../../worker/core/budget/budget-rpc.ts";
import { leaseFor } from "../../worker/core/budget/lease.ts";
import { ClientShares, MAX_CLIENTS, MIN_SHARE, shareOf } from "../../worker/core/budget/shares.ts";
import { shopperRate, WINDOW_MS, windowOf } from "../../worker/core/budget/window.ts";

const RATE = 10;
const T0 = 1_000_000; // a window start
/** How long the service takes to answer one call (the next call of that checkout waits). */
const ANSWER_MS = 100;

/** A budget object's state, asked in turn. */
function budget() {
  let state: BudgetStatus | null = null;
  const shares = new ClientShares();
  return {
    shares,
    ask(priority: Priority, client: string | undefined, now: number, want = 1): Lease {
      const input = { priority, want, ratePerSecond: RATE, ...(client ? { client } : {}) };
      const r = leaseFor(state, shares, input, now);
      state = r.state;
      return r.lease;
    },
  };
}

/** The window a granted call is sent in (a reservation's, or now). */
const sentWindow = (lease: Lease, now: number) => windowOf(lease.sendFrom || now);

/**
 * `checkouts` checkouts of one attacker client (or, with `clients`, of that many clients)
 * re-locking in a loop, asking again at once after every refusal (ignoring Retry-After), each
 * sending its next lock as soon as the last one was answered; and a victim that asks for a
 * create at `victimAt`, its first lock when the create was answered, then three switches one
 * and a half seconds apart. Answers the calls sent per client per window, and the victim's
 * calls: the window asked in, the window sent in, and refusals. `legacy`: as before lanes and
 * shares, every call an interactive one without a client.
 */
function flood(options: {
  checkouts: number;
  clients?: number;
  legacy?: boolean;
  windows: number;
}) {
  const b = budget();
  const victimAt = T0 + 2 * WINDOW_MS + 300;
  const calls = new Map<number, Map<string, number>>();
  const count = (window: number, who: string) => {
    const inWindow = calls.get(window) ?? new Map<string, number>();
    inWindow.set(who, (inWindow.get(who) ?? 0) + 1);
    calls.set(window, inWindow);
  };
  const checkouts = Array.from({ length: options.checkouts }, (_, i) => ({
    client: `attacker-${i % (options.clients ?? 1)}`,
    next: T0 + (i % 20),
  }));
  const plan: { at: number; priority: Priority }[] = [{ at: victimAt, priority: "interactive" }];
  const victim: { asked: number; sent: number; refused: boolean; priority: Priority }[] = [];
  for (let now = T0; now < T0 + options.windows * WINDOW_MS; now += 5) {
    for (const c of checkouts) {
      if (now < c.next) continue;
      const lease = options.legacy
        ? b.ask("interactive", undefined, now)
        : b.ask("relock", c.client, now);
      if (lease.granted > 0) {
        count(sentWindow(lease, now), "attacker");
        c.next = Math.max(now, lease.sendFrom) + ANSWER_MS;
      } else c.next = now + 5;
    }
    const step = plan[0];
    if (step && now >= step.at) {
      plan.shift();
      const lease = options.legacy
        ? b.ask("interactive", undefined, now)
        : b.ask(step.priority, "victim", now);
      const sent = Math.max(now, lease.sendFrom);
      victim.push({
        asked: windowOf(now),
        sent: windowOf(sent),
        refused: lease.granted === 0,
        priority: step.priority,
      });
      if (lease.granted > 0) count(windowOf(sent), "victim");
      const done = sent + ANSWER_MS;
      if (victim.length === 1)
        plan.push({ at: done, priority: "interactive" }); // first lock
      else if (victim.length < 5) plan.push({ at: done + 1_500, priority: "relock" }); // switches
    }
  }
  return { calls, victim, attackerIn: (w: number) => calls.get(w)?.get("attacker") ?? 0 };
}

describe("upstream budget: fair shares of the shopper lanes", () => {
  it("as before (one lane, no clients), an attacker re-locking from 60 checkouts makes the victim wait many windows", () => {
    const run = flood({ checkouts: 60, legacy: true, windows: 30 });
    const [create] = run.victim;
    expect(create!.sent - create!.asked).toBeGreaterThanOrEqual(3 * WINDOW_MS);
  });

  it("an attacker re-locking from 60 checkouts: the victim's create and first lock are each sent within one window of asking, its switches within two, never refused", () => {
    const run = flood({ checkouts: 60, windows: 12 });
    expect(run.victim).toHaveLength(5);
    for (const call of run.victim) {
      expect(call.refused).toBe(false);
      const bound = call.priority === "relock" ? 2 : 1;
      expect(call.sent - call.asked).toBeLessThanOrEqual(bound * WINDOW_MS);
    }
    // Alone before the victim came, the attacker took its whole share: the shoppers' rate.
    expect(run.attackerIn(T0 + WINDOW_MS)).toBe(shopperRate(RATE));
    // In the window after each of the victim's asks (the victim active there), the attacker
    // holds at most half the shoppers' rate: its equal share. (In the window of the ask it may
    // already hold more, taken while it was alone: nobody waited then.)
    const half = shareOf(shopperRate(RATE), 2);
    for (const call of run.victim)
      expect(run.attackerIn(call.asked + WINDOW_MS)).toBeLessThanOrEqual(half);
  });

  it("four attacker clients of 15 checkouts each: the victim still within one window; the four together take no more than their four shares", () => {
    const run = flood({ checkouts: 60, clients: 4, windows: 12 });
    for (const call of run.victim) {
      expect(call.refused).toBe(false);
      expect(call.sent - call.asked).toBeLessThanOrEqual(
        (call.priority === "relock" ? 2 : 1) * WINDOW_MS,
      );
    }
    const share = shareOf(shopperRate(RATE), 5);
    expect(share).toBe(MIN_SHARE);
    const created = run.victim[0]!.asked;
    for (let w = created + WINDOW_MS; w <= created + 2 * WINDOW_MS; w += WINDOW_MS)
      expect(run.attackerIn(w)).toBeLessThanOrEqual(4 * share);
  });

  it("the merchant's call goes ahead of every waiting shopper: served in the next window at the latest", () => {
    const b = budget();
    // 200 shopper clients each ask two calls at once: the window and many ahead fill.
    let last = 0;
    for (let i = 0; i < 200; i += 1) {
      for (const priority of ["interactive", "relock"] as const) {
        const lease = b.ask(priority, `shopper-${i}`, T0 + 10);
        last = Math.max(last, lease.sendFrom);
      }
    }
    expect(last).toBeGreaterThanOrEqual(T0 + 5 * WINDOW_MS); // a long queue of shoppers
    const merchant = b.ask("merchant", undefined, T0 + 20);
    expect(merchant.granted).toBe(1);
    expect(merchant.sendFrom).toBeLessThanOrEqual(T0 + WINDOW_MS);
    // And again in the next window, behind nobody.
    const again = b.ask("merchant", undefined, T0 + WINDOW_MS + 20);
    expect(again.granted).toBe(1);
    expect(again.sendFrom).toBeLessThanOrEqual(T0 + 2 * WINDOW_MS);
  });

  it("opens go ahead of re-locks: an open asked after a queue of re-locks is served in the next window, a re-lock asked with it waits behind them", () => {
    const b = budget();
    for (let i = 0; i < 100; i += 1) b.ask("relock", `relocker-${i}`, T0 + 10);
    const open = b.ask("interactive", "newcomer", T0 + 20);
    const relock = b.ask("relock", "other", T0 + 20);
    expect(open.granted).toBe(1);
    expect(open.sendFrom).toBeLessThanOrEqual(T0 + WINDOW_MS);
    expect(relock.sendFrom).toBeGreaterThanOrEqual(T0 + 5 * WINDOW_MS);
  });

  it("a client over its share is refused at once, with when one of its calls frees; never reserved a later window", () => {
    const b = budget();
    // Alone: the whole shoppers' rate, no more.
    expect(b.ask("interactive", "a", T0 + 10, 100).granted).toBe(shopperRate(RATE));
    const over = b.ask("relock", "a", T0 + 20);
    expect(over).toMatchObject({ granted: 0, overShare: true, retryAt: T0 + WINDOW_MS });
    // Another client is not refused for it.
    expect(b.ask("relock", "b", T0 + 30).granted).toBe(1);
    // A call without a client (the currency lists) is never limited per client.
    expect(b.ask("interactive", undefined, T0 + 40).overShare).toBeUndefined();
  });

  it("the client table is bounded: beyond MAX_CLIENTS, newcomers share one entry; idle clients are forgotten after a window", () => {
    const shares = new ClientShares();
    for (let i = 0; i < MAX_CLIENTS + 50; i += 1) shares.take(`c-${i}`, T0, 1, T0 + 1);
    expect(shares.active(T0 + 2)).toBe(MAX_CLIENTS + 1);
    // The newcomers share one entry: together they hold 50 calls, so one more gets none.
    expect(shares.room("c-new", 8, T0 + 3)).toBe(0);
    // Two windows later nobody asked nor holds a call: the table is empty.
    expect(shares.active(T0 + 2 * WINDOW_MS + 1)).toBe(0);
  });
});
