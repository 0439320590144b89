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
  | { k: "reconcile"; restart: boolean }
  /**
   * A shopper pays the due amount by x402 from a fresh wallet (`x402.ts`): with a facilitator
   * fault, the same header again (after, at the same time, or the nonce signed again), a second
   * wallet at the same time, a payer short of the money, the settlement failing on chain, and
   * the service's confirm delay for it.
   */
  | {
      k: "x402";
      fault: X402Fault;
      replay: (typeof X402_REPLAYS)[number];
      twin: boolean;
      poor: boolean;
      failOnChain: boolean;
      confirmMs: number;
      bg: boolean;
    }
  /** A `PAYMENT-SIGNATURE` the history sent before, sent again now. */
  | { k: "x402-replay"; pick: number }
  /** A settlement webhook (`x402.payment.*`) delivered, out of order, again, or lost. */
  | { k: "x402-deliver"; how: (typeof X402_DELIVERY_MODES)[number]; pick: number }
  /** The next settlement read of any order fails (`GET /x402/settlements`). */
  | { k: "x402-read-fault"; mode: "5xx" | "429" }
  /**
   * A client re-locking in a loop (`act.ts`): one address opens `checkouts` checkouts of its
   * own and re-locks each `locks` times, alternating currencies, all at once, while another
   * shopper (an address of its own) opens one and locks it.
   */
  | { k: "relock-flood"; checkouts: number; locks: number; bg: boolean };

/** Facilitator faults a paying x402 request can meet (`x402.ts` arms each one). */
export const X402_FAULTS = [
  "none",
  "verify-5xx",
  "verify-down",
  "verify-429",
  "settle-5xx",
  "settle-429",
  "settle-drop",
  "settle-timeout",
  "settle-slow-restart",
] as const;
export type X402Fault = (typeof X402_FAULTS)[number];
export const X402_REPLAYS = ["none", "again", "concurrent", "resigned"] as const;
export const X402_DELIVERY_MODES = ["next", "reorder", "duplicate", "replayed", "lost"] as const;

const bg = fc.boolean();
const pick = fc.integer({ min: 0, max: 99 });

/** One step, weighted towards what moves money (payments and deliveries). */
const stepArbs = [
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
] satisfies fc.WeightedArbitrary<Step>[];
export const stepArb: fc.Arbitrary<Step> = fc.oneof(...stepArbs);

/** How often each facilitator fault meets a paying request (a timeout costs the worker's 8 s). */
const X402_FAULT_WEIGHTS: Record<X402Fault, number> = {
  none: 14,
  "verify-5xx": 2,
  "verify-down": 1,
  "verify-429": 2,
  "settle-5xx": 2,
  "settle-429": 2,
  "settle-drop": 3,
  "settle-timeout": 1,
  "settle-slow-restart": 2,
};

const x402FaultArb: fc.Arbitrary<X402Fault> = fc.oneof(
  ...X402_FAULTS.map((f) => ({ weight: X402_FAULT_WEIGHTS[f], arbitrary: fc.constant(f) })),
);

/** A paying request; `clean` draws one with no fault, no short payer and no failure. */
function x402PayArb(clean = false): fc.Arbitrary<Step> {
  const rare = (pct: number) => fc.integer({ min: 0, max: 99 }).map((n) => !clean && n < pct);
  return fc.record({
    k: fc.constant("x402" as const),
    fault: clean ? fc.constant("none" as const) : x402FaultArb,
    replay: fc.oneof(
      { weight: 6, arbitrary: fc.constant("none" as const) },
      { weight: 1, arbitrary: fc.constantFrom(...X402_REPLAYS.slice(1)) },
    ),
    twin: rare(12),
    poor: rare(12),
    failOnChain: rare(12),
    confirmMs: fc.constantFrom(0, 20, 150),
    bg: clean ? fc.constant(false) : rare(20),
  });
}

/** The x402 steps, weighted against the rest in an x402 history. */
const x402StepArbs = [
  { weight: 5, arbitrary: x402PayArb() },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("x402-replay" as const), pick }) },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant("x402-deliver" as const),
      how: fc.oneof(
        { weight: 3, arbitrary: fc.constant("next" as const) },
        { weight: 4, arbitrary: fc.constantFrom(...X402_DELIVERY_MODES.slice(1)) },
      ),
      pick,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("x402-read-fault" as const),
      mode: fc.constantFrom("5xx" as const, "429" as const),
    }),
  },
];

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

/**
 * Both ways paying one order: part by invoice first (or not), then the rest by x402 with its
 * settlement webhook delivered, then (or not) the invoice paid in full as well (an overpayment
 * the worker must count once). Random steps rarely pay by x402 what is due when it is due;
 * these tails do, and the faults of the steps before still apply.
 */
const x402TailArb: fc.Arbitrary<Step[]> = fc
  .record({
    partFirst: fc.boolean(),
    share: fc.integer({ min: 10, max: 90 }),
    invoiceAfter: fc.boolean(),
    pay: x402PayArb(true),
  })
  .map(({ partFirst, share, invoiceAfter, pay }) => {
    const next: Step = { k: "deliver", how: "next", pick: 0, bg: false };
    const invoice = (action: "partial" | "paid"): Step => ({
      k: "pay",
      action,
      share,
      older: false,
    });
    return [
      ...(partFirst
        ? [
            { k: "lock", tabs: ["USDT_TRC20"], slowFirst: false, bg: false } as Step,
            invoice("partial"),
            next,
            next,
          ]
        : []),
      pay,
      { k: "x402-deliver", how: "next", pick: 0 } as Step,
      ...(invoiceAfter ? [invoice("paid"), next, next] : []),
    ];
  });

/**
 * Whether seed `seed` draws an x402 history: three seeds in ten. Decided by the seed, not drawn
 * by the arbitrary, so every other seed draws exactly the history it drew before x402 existed
 * (the replays of `time-passes.test.ts` and every recorded failing seed stay what they were).
 */
export function x402Seed(seed: number): boolean {
  return ((seed % 10) + 10) % 10 < 3;
}

/** The attack drawn into a flood history (`floodSeed`). */
const relockFloodArb: fc.Arbitrary<Step> = fc.record({
  k: fc.constant("relock-flood" as const),
  checkouts: fc.integer({ min: 2, max: 5 }),
  locks: fc.integer({ min: 3, max: 10 }),
  bg,
});

/**
 * Whether seed `seed` draws a flood history: one seed in twenty (never an x402 one), with one
 * `relock-flood` step among its others. Decided by the seed, as `x402Seed`, so every other seed
 * draws exactly the history it drew before; rare, as the attack costs a history a few opens
 * and tens of locks.
 */
export function floodSeed(seed: number): boolean {
  return ((seed % 20) + 20) % 20 === 13;
}

/**
 * A history: the order's amount and 1–`maxSteps` steps, a third of them ending in a refund.
 * A flood history (`flood`, `floodSeed`) has one `relock-flood` step among them.
 * An x402 history (`x402`) also pays by x402, replays, delivers and faults settlements
 * (`x402StepArbs`, about three steps in ten), and two in five end paying both ways.
 */
export function historyArb(maxSteps: number, x402 = false, flood = false): fc.Arbitrary<History> {
  if (flood && !x402) {
    // The attack at a drawn place among the history's steps (before its refund tail, if any).
    return fc.tuple(historyArb(maxSteps), relockFloodArb, fc.nat()).map(([history, attack, at]) => {
      const steps = [...history.steps];
      steps.splice(at % (steps.length + 1), 0, attack);
      return { amount: history.amount, steps };
    });
  }
  if (x402) {
    return fc
      .record({
        amount: fc.constantFrom("49.90", "100.00", "12.34"),
        steps: fc.array(fc.oneof(...stepArbs, ...x402StepArbs), {
          minLength: 1,
          maxLength: maxSteps,
        }),
        tail: fc.oneof(
          { weight: 2, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: refundTailArb },
          { weight: 2, arbitrary: x402TailArb },
        ),
      })
      .map(({ amount, steps, tail }) => ({ amount, steps: tail ? [...steps, ...tail] : steps }));
  }
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
