/**
 * The simulation's clock under load, made deterministic: while other histories' shoppers take
 * every call of the deployment's budget, quiescence's forced reads are deferred (reconciliation
 * yields). The history must still come to rest with every read made, not with the deferred
 * ones taken for reads that found nothing new. Replays the interleaving of `npm test`'s seeds
 * 122, 125, 130 (an invoice expires or fails, its delivery is lost) that only happened with six
 * histories side by side (docs/SIM-FINDINGS.md).
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { deploymentBudget } from "../worker/helpers.ts";
import { act } from "./act.ts";
import { SIM_BUDGET } from "./budget.ts";
import { checkInvariants } from "./invariants.ts";
import { quiesce } from "./quiesce.ts";
import { Stats } from "./stats.ts";
import { type History, historyArb } from "./steps.ts";
import { World } from "./world.ts";

/** `npm test`'s steps per history at most (`SIM_STEPS` default, test/sim/global-setup.ts). */
const SIM_STEPS = 14;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Shoppers of other histories take every call of each budget window for `ms` (the budget then
 * also keeps the window after each for them): no reconciliation read is granted meanwhile.
 * Resolves once the first window is taken; `done` resolves when they stop.
 */
async function shoppersTakeTheBudget(ms: number): Promise<{ done: Promise<void> }> {
  const until = Date.now() + ms;
  const take = () =>
    deploymentBudget().lease({ priority: "interactive", want: 100, ratePerSecond: SIM_BUDGET });
  await take();
  const done = (async () => {
    while (Date.now() < until) {
      await sleep(1000 - (Date.now() % 1000) + 2);
      await take();
    }
  })();
  return { done };
}

/** Plays `steps`, then brings the history to rest while shoppers take the budget; checks. */
async function restUnderLoad(seed: number, history: History): Promise<World> {
  const world = await World.open(seed, history.amount, new Stats(), []);
  for (const step of history.steps) await act(world, step);
  // Longer than quiescence's first two rounds: a round that reads nothing must not end it.
  const shoppers = await shoppersTakeTheBudget(4_000);
  await quiesce(world);
  await shoppers.done;
  const violations = await checkInvariants(world);
  expect(violations, world.trace.join("\n")).toEqual([]);
  return world;
}

it("an expired invoice whose delivery was lost is read once the budget has a call again, while other histories' shoppers take every call", async () => {
  const world = await restUnderLoad(122, {
    amount: "49.90",
    steps: [
      { k: "pay", action: "expire", share: 1, older: false },
      { k: "deliver", how: "lost", pick: 0, bg: false },
    ],
  });
  expect((await world.snapshot()).attempt.status).toBe("expired");
});

// The histories `npm test` failed with six lanes (SIM_SEED_BASE=1): the same steps, and the
// load made certain. 254 (a refund payout's uncertain commit, resolved by its alarm's read)
// failed in a 500-history run once the others were fixed.
it.each([122, 125, 130, 191, 254])(
  "seed %i of npm test comes to rest converged while other histories' shoppers take every call",
  async (seed) => {
    await restUnderLoad(seed, fc.sample(historyArb(SIM_STEPS), { seed, numRuns: 1 })[0]!);
  },
);
