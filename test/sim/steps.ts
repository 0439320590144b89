/**
 * @module steps
 * What a simulated history is made of, and the seeded generator of histories (fast-check
 * arbitraries, so a failing history shrinks to a short one and a seed replays it).
 *
 * A step is data, never a closure: a history prints as JSON and reads as a script.
 * `bg: true` starts the step without waiting for it, so it overlaps the steps after it (two
 * tabs, a slow read racing a webhook, a refund racing a retry).
 */
import fc from "fast-check";
import { SIMULATE_ACTIONS } from "../../demo/merchant/sandbox-admin.ts";

/** Currencies the shopper's tabs choose between (the Tron pair shares one address format). */
export const LOCK_CURRENCIES = ["USDT_TRC20", "TRX", "USDT_ERC20"] as const;
export type LockCurrency = (typeof LOCK_CURRENCIES)[number];

/**
 * The service's admin moves on an invoice (`/sandbox/invoices/:ref/simulate`): the demo panel's
 * own list, so a history can use every move the panel offers and no other.
 */
export const PAY_ACTIONS = SIMULATE_ACTIONS;

/** The service's admin moves on a withdrawal (a refund or a payout). */
export const WITHDRAWAL_ACTIONS = ["processing", "completed", "fail", "cancel"] as const;

/**
 * How a webhook reaches the worker (or not). A delivery carries its object whole, so the worker
 * applies it as a read; `stale`, `refetch-5xx` and `slow-read` send it without its record (the
 * refetch path) with the read fault armed. `older-data` sends again, as other bytes, a delivery
 * older than one already acknowledged for the same object (its data is older than what is
 * known); `replayed` sends any delivery again as other bytes (a duplicate the body hash cannot
 * catch: the monotonic facts must).
 */
export const DELIVERY_MODES = [
  "next",
  "reorder",
  "duplicate",
  "lost",
  "stale",
  "refetch-5xx",
  "slow-read",
  "older-data",
  "replayed",
] as const;

/** Upstream paths a fault can hit, by what the worker does there. */
export const UPSTREAM_CALLS = {
  create: { method: "POST", path: "/invoice" },
  lock: { method: "POST", path: "/x-sandbox/invoice/lock-currency" },
  read: { method: "GET", path: "/invoice" },
  quote: { method: "POST", path: "/withdrawal/quote" },
  commit: { method: "POST", path: "/withdrawal/commit" },
  "withdrawal-read": { method: "GET", path: "/withdrawal" },
} as const;
export type UpstreamCall = keyof typeof UPSTREAM_CALLS;

/** What goes wrong on an upstream call: 5xx, 429, answer lost after the work, garbled, slow. */
export const UPSTREAM_MODES = ["5xx", "429", "429-storm", "drop", "malformed", "slow"] as const;

export type Step =
  | { k: "lock"; tabs: LockCurrency[]; slowFirst: boolean; bg: boolean }
  | { k: "retry"; bg: boolean }
  | { k: "refund-address"; currency: "USDT_TRC20" | "TRX"; valid: boolean; bg: boolean }
  | {
      k: "pay";
      action: (typeof PAY_ACTIONS)[number];
      /** Percent of what is still due, for `partial`. */
      share: number;
      /** Which attempt at the service: the newest, or the one before (a late event). */
      older: boolean;
    }
  | { k: "deliver"; how: (typeof DELIVERY_MODES)[number]; pick: number; bg: boolean }
  | { k: "upstream"; call: UpstreamCall; mode: (typeof UPSTREAM_MODES)[number] }
  | {
      k: "refund";
      part: boolean;
      bg: boolean;
      /** The shopper first leaves a valid refund address in the paid currency (as the widget asks). */
      address: boolean;
    }
  | { k: "payout"; bg: boolean }
  | { k: "withdrawal"; action: (typeof WITHDRAWAL_ACTIONS)[number]; pick: number }
  | { k: "restart"; how: "evict" | "abort" }
  | { k: "alarm" }
  | { k: "watch" }
  /** The account's reconciler sweeps (list pages, single reads), restarted first or not. */
  | { k: "reconcile"; restart: boolean };

const bg = fc.boolean();
const pick = fc.integer({ min: 0, max: 99 });

/** One step, weighted towards what moves money (payments and deliveries). */
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant("lock" as const),
      tabs: fc.array(fc.constantFrom(...LOCK_CURRENCIES), { minLength: 1, maxLength: 2 }),
      slowFirst: fc.boolean(),
      bg,
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("retry" as const), bg }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("refund-address" as const),
      currency: fc.constantFrom("USDT_TRC20" as const, "TRX" as const),
      valid: fc.boolean(),
      bg,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant("pay" as const),
      action: fc.constantFrom(...PAY_ACTIONS),
      share: fc.integer({ min: 1, max: 99 }),
      older: fc.boolean(),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant("deliver" as const),
      how: fc.constantFrom(...DELIVERY_MODES),
      pick,
      bg,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant("upstream" as const),
      call: fc.constantFrom(...(Object.keys(UPSTREAM_CALLS) as UpstreamCall[])),
      mode: fc.constantFrom(...UPSTREAM_MODES),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("refund" as const),
      part: fc.boolean(),
      bg,
      address: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("payout" as const), bg }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("withdrawal" as const),
      action: fc.constantFrom(...WITHDRAWAL_ACTIONS),
      pick,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("restart" as const),
      how: fc.constantFrom("evict" as const, "abort" as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("alarm" as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("watch" as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant("reconcile" as const), restart: fc.boolean() }),
  },
);

/**
 * A refund that can reach the service: money that a refund may return (over, or partial then
 * the end of the attempt), delivered, then the merchant's refund with the shopper's address.
 * Random steps alone rarely line these up (a refund needs an address in the paid currency and
 * an overpaid or ended partial order), so a third of the histories end with one; the faults of
 * the steps before still apply to it.
 */
const refundTailArb: fc.Arbitrary<Step[]> = fc
  .record({ over: fc.boolean(), part: fc.boolean(), share: fc.integer({ min: 10, max: 90 }) })
  .map(({ over, part, share }) => {
    const pay = (action: Extract<Step, { k: "pay" }>["action"]): Step => ({
      k: "pay",
      action,
      share,
      older: false,
    });
    const next: Step = { k: "deliver", how: "next", pick: 0, bg: false };
    return [
      { k: "lock", tabs: ["USDT_TRC20"], slowFirst: false, bg: false },
      ...(over ? [pay("over")] : [pay("partial"), pay("expire")]),
      next,
      next,
      next,
      { k: "refund", part, bg: false, address: true },
    ];
  });

/** A history: the order's amount and 1–`maxSteps` steps, a third of them ending in a refund. */
export function historyArb(maxSteps: number) {
  return fc
    .record({
      amount: fc.constantFrom("49.90", "100.00", "12.34"),
      steps: fc.array(stepArb, { minLength: 1, maxLength: maxSteps }),
      tail: fc.oneof(
        { weight: 2, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: refundTailArb },
      ),
    })
    .map(({ amount, steps, tail }) => ({ amount, steps: tail ? [...steps, ...tail] : steps }));
}
export type History = { amount: string; steps: Step[] };
