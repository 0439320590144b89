/**
 * The x402 paths of the simulation made certain: histories the seeded draws reach only now and
 * then (a settle whose answer is lost, a settle refused by the limiter, a settlement failing on
 * chain whose webhook is lost, two wallets at once, a payer short of money, the order object
 * restarting while its settle is held at the service), each brought to rest and checked
 * against the service's settlements (`invariants.ts`).
 */
import { expect, it } from "vitest";
import { act } from "./act.ts";
import { checkInvariants } from "./invariants.ts";
import { quiesce } from "./quiesce.ts";
import { Stats } from "./stats.ts";
import type { History, Step } from "./steps.ts";
import { World } from "./world.ts";

/** A paying x402 step: no fault, no replay, unless `over` says otherwise. */
const pay = (over: Partial<Extract<Step, { k: "x402" }>> = {}): Step => ({
  k: "x402",
  fault: "none",
  replay: "none",
  twin: false,
  poor: false,
  failOnChain: false,
  confirmMs: 20,
  bg: false,
  ...over,
});
const deliver = (how: Extract<Step, { k: "x402-deliver" }>["how"]): Step => ({
  k: "x402-deliver",
  how,
  pick: 0,
});

async function rest(seed: number, history: History): Promise<void> {
  const world = await World.open(seed, history.amount, new Stats(), []);
  for (const step of history.steps) await act(world, step);
  await quiesce(world);
  const violations = await checkInvariants(world);
  expect(violations, world.trace.join("\n")).toEqual([]);
}

it.each<[string, Step[]]>([
  [
    "a settle whose answer is lost, the same header again, the webhook duplicated",
    [pay({ fault: "settle-drop", replay: "again" }), deliver("next"), deliver("duplicate")],
  ],
  [
    "a settle refused by the limiter (429), then paid by another wallet",
    [pay({ fault: "settle-429" }), pay()],
  ],
  [
    "a settle answered 5xx (nothing settled): the payment stays unknown",
    [pay({ fault: "settle-5xx" })],
  ],
  [
    "a settlement failing on chain, its webhook lost, a second wallet while it is open",
    [pay({ failOnChain: true }), deliver("lost"), pay(), deliver("reorder")],
  ],
  [
    "two wallets at once, the same header twice at once",
    [pay({ twin: true, replay: "concurrent" })],
  ],
  [
    "a payer short of money, then the nonce signed again",
    [pay({ poor: true, replay: "resigned" })],
  ],
  [
    "part by invoice, the rest by x402, then the invoice in full",
    [
      { k: "lock", tabs: ["USDT_TRC20"], slowFirst: false, bg: false },
      { k: "pay", action: "partial", share: 40, older: false },
      { k: "deliver", how: "next", pick: 0, bg: false },
      { k: "deliver", how: "next", pick: 0, bg: false },
      pay(),
      deliver("next"),
      { k: "pay", action: "paid", share: 40, older: false },
    ],
  ],
])("x402: %s", async (_what, steps) => {
  await rest(402, { amount: "12.34", steps });
});

// Worker bug (report: seeds 100131 100149 100206 100213 of SIM_SEED_BASE=100000): a claim is
// written `settling` with no read scheduled; when the object restarts while its verify/settle
// is awaited, nothing ever moves it: the settlement the service made is never read, its money
// never applied, and the order refuses every later x402 payment (409 x402_in_flight). Flip to
// `it` once the worker follows an orphaned claim.
it("x402: the order object restarts while its settle is held at the service", async () => {
  await rest(403, { amount: "12.34", steps: [pay({ fault: "settle-slow-restart" })] });
});
