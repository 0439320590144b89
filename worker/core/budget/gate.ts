/**
 * @module
 * The isolate's side of the upstream budget: a gate the transport passes before each attempt
 * (`service/transport.ts` `UpstreamGate`). Calls are taken from a lease this isolate holds
 * for the priority (and the client, in the shopper lanes: `shares.ts`); only when it has none
 * left does it ask the budget object for more, so a burst of creates pays one round trip per
 * lease, not one per call.
 *
 * Invariants:
 * - a leased call is only sent before its `spendUntil` (what is left after is dropped: it was
 *   counted in its window, and spending it later could exceed the next one);
 * - a lease asks for one call more than this isolate used in the last window at that
 *   priority, at most `MAX_BATCH`: an idle isolate holds nothing unused, a busy one rarely asks;
 * - a 429 from the service drops every lease this isolate holds for that budget (each call
 *   left would meet the same 429); the budget object pauses the others' next grants;
 * - a reservation (an interactive caller's one call in a later window, `sendFrom`) is this
 *   caller's alone: it sleeps until the window opens and sends, never asking again (first come,
 *   first served across the deployment); it is never shared through the isolate's leases;
 * - `prefetch` asks for a lease before the call that needs it (a create asks while its claims
 *   are being committed, so the budget's round trip and the commit overlap): only calls of the
 *   current window (never a reservation: those are a caller's own), kept like any lease; the
 *   call's `admit` waits for it rather than asking again. Two leases of one window held at
 *   once add up (what is left of either may be spent, both were counted in that window);
 * - a caller that cannot be granted a call before its deadline (or `MAX_WAIT_MS`) gets a 429 `UpstreamError`
 *   (code `budget.exhausted`, `retryAfterMs` = when to try again): the same failure as the
 *   service's own 429, which every caller already handles; it is never reported back as the
 *   service's;
 * - a client over its fair share (`lease.overShare`) is refused at once, whatever its lane's
 *   wait (code `budget.over_share`, never retried by the transport): the shopper is told
 *   `rate_limited`, not "the service is busy";
 * - a lease of one client is never spent on another's call (the slot names the client), and
 *   this isolate holds at most `MAX_HELD` slots (expired ones are dropped first).
 */
import { UpstreamError } from "../../service/errors.ts";
import { GATE_REFUSAL, SHARE_REFUSAL, type UpstreamGate } from "../../service/transport.ts";
import type { BudgetRpc, Lease, Priority } from "./budget-rpc.ts";
import { SEND_MARGIN_MS } from "./window.ts";

/**
 * How long a call waits for the budget before it is refused: a shopper's not at all (the
 * budget reserves it a later window before its deadline, or there is none to wait for); a
 * webhook refetch a second (then 503: the service redelivers); a reconciliation read only
 * across a window's edge (the last `SEND_MARGIN_MS` of a window grant nothing: refused there, a
 * sweep or read would be put off a whole second for 200 ms), never longer (it holds its
 * object's lane: the object reschedules it instead).
 */
export const MAX_WAIT_MS: Record<Priority, number> = {
  merchant: 0,
  interactive: 0,
  relock: 0,
  webhook: 1_000,
  reconcile: SEND_MARGIN_MS + 5,
};

/** Most calls one isolate leases at once. */
export const MAX_BATCH = 8;

/** Most lease slots (budget × priority × client) one isolate keeps. */
export const MAX_HELD = 1_024;

interface Held {
  left: number;
  spendUntil: number;
  /** Calls taken in the window `windowEnd` closes, and in the one before. */
  used: number;
  usedBefore: number;
  windowEnd: number;
}

/** Leases this isolate holds, by budget key and priority (plain numbers only: no I/O objects). */
const held = new Map<string, Held>();

/** Leases asked ahead of a call (`prefetch`) and not answered yet, by slot. */
const asking = new Map<string, Promise<void>>();

/** Test hook: drops every lease this isolate holds. */
export function forgetLeases(): void {
  held.clear();
  asking.clear();
}

/** The gate of one priority, and its lease asked ahead of a call (`budgetGate`). */
export interface BudgetGate extends UpstreamGate {
  /**
   * Asks for a lease now, unless one is held or being asked: the call that follows (`admit`)
   * then finds it (or waits for it) instead of asking after. Never throws; never reserves.
   */
  prefetch(): void;
}

/**
 * A gate over the budget `budget()` names, for calls of `priority` (on behalf of `client` in
 * the shopper lanes: its fair share, `shares.ts`).
 *
 * @example
 * const gate = budgetGate(() => budgetStub(env, key), key, "interactive", 10);
 * await gate.admit(Date.now() + 15_000);
 */
export function budgetGate(
  budget: () => BudgetRpc,
  key: string,
  priority: Priority,
  ratePerSecond: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  client?: string,
): BudgetGate {
  const slot = client ? `${key}|${priority}|${client}` : `${key}|${priority}`;
  const who = client ? { client } : {};
  return {
    prefetch() {
      const now = Date.now();
      const h = held.get(slot);
      if ((h && h.left > 0 && now < h.spendUntil) || asking.has(slot)) return;
      const want = Math.min(MAX_BATCH, 1 + recentUse(h, now));
      // A deadline of now: this window's calls or none (a reservation is a caller's own).
      const ask = budget()
        .lease({ priority, want, ratePerSecond, deadline: now, ...who })
        .then((lease) => {
          if (lease.granted > 0 && lease.sendFrom <= Date.now()) keep(slot, lease);
        })
        .catch(() => {}) // the call's own `admit` asks again
        .finally(() => asking.delete(slot));
      asking.set(slot, ask);
    },
    async admit(deadline) {
      for (;;) {
        await asking.get(slot);
        const now = Date.now();
        const h = held.get(slot);
        if (h && h.left > 0 && now < h.spendUntil) {
          h.left -= 1;
          countUse(h, now);
          return;
        }
        const want = Math.min(MAX_BATCH, 1 + recentUse(h, now));
        const lease: Lease = await budget().lease({
          priority,
          want,
          ratePerSecond,
          deadline,
          ...who,
        });
        if (lease.overShare) {
          const wait = Math.max(1, lease.retryAt - Date.now());
          throw new UpstreamError("http", `upstream budget: this client holds its share`, {
            status: 429,
            code: SHARE_REFUSAL,
            retryAfterMs: wait,
          });
        }
        if (lease.granted > 0 && (lease.sendFrom ?? 0) > Date.now()) {
          // A reservation: this caller's one call, in the window that opens at `sendFrom`.
          await sleep(lease.sendFrom - Date.now());
          if (Date.now() >= lease.spendUntil) continue; // woke past its window: lost, ask again
          if (h) countUse(h, Date.now());
          return;
        }
        if (lease.granted > 0) {
          keep(slot, lease);
          continue;
        }
        const wait = Math.max(1, lease.retryAt - Date.now());
        if (wait > MAX_WAIT_MS[priority] || Date.now() + wait >= deadline) {
          throw new UpstreamError(
            "http",
            `upstream budget: no ${priority} call free for ${wait} ms`,
            { status: 429, code: GATE_REFUSAL, retryAfterMs: wait },
          );
        }
        await sleep(wait);
      }
    },
    async rateLimited(retryAfterMs) {
      // What this isolate still holds of the key's window would meet the same 429.
      // (Every priority's slots, and every client's.)
      for (const slot of held.keys()) if (slot.startsWith(`${key}|`)) held.delete(slot);
      await budget().rateLimited(retryAfterMs ?? 1_000);
    },
  };
}

const WINDOW_MS = 1_000;

/** Holds a granted lease's calls, added to what is left of another lease of the same window. */
function keep(slot: string, lease: Lease): void {
  const next = reuse(held.get(slot), Date.now());
  const carried =
    next.spendUntil === lease.spendUntil && Date.now() < next.spendUntil ? next.left : 0;
  held.set(slot, { ...next, left: carried + lease.granted, spendUntil: lease.spendUntil });
  if (held.size > MAX_HELD) trim(Date.now());
}

/** Drops slots with nothing left to spend nor use to size by, then the oldest, to `MAX_HELD`. */
function trim(now: number): void {
  for (const [slot, h] of held) {
    if (held.size <= MAX_HELD) return;
    if (now >= h.spendUntil && now >= h.windowEnd + WINDOW_MS) held.delete(slot);
  }
  for (const slot of held.keys()) {
    if (held.size <= MAX_HELD) return;
    held.delete(slot);
  }
}

/** Calls taken in the last full window (what the next lease is sized by). */
function recentUse(h: Held | undefined, now: number): number {
  if (!h) return 0;
  if (now < h.windowEnd) return h.usedBefore;
  return now < h.windowEnd + WINDOW_MS ? h.used : 0;
}

/** The use counters moved to the window `now` is in. */
function reuse(h: Held | undefined, now: number): Held {
  const windowEnd = Math.floor(now / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
  if (!h) return { left: 0, spendUntil: 0, used: 0, usedBefore: 0, windowEnd };
  if (now < h.windowEnd) return h;
  const usedBefore = now < h.windowEnd + WINDOW_MS ? h.used : 0;
  return { ...h, used: 0, usedBefore, windowEnd };
}

function countUse(h: Held, now: number): void {
  Object.assign(h, reuse(h, now));
  h.used += 1;
}
