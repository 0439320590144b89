/**
 * The deterministic simulation (README "Tests"): seeded histories of shoppers, service events,
 * delivery and upstream faults, merchant refunds and payouts and object restarts, against the
 * real worker in workerd and the real sandbox; after quiescence every invariant of
 * `invariants.ts` must hold. A failure prints its seed and its shrunk history;
 * `SIM_SEED=<seed> npx vitest run --project sim` replays it.
 */
import fc from "fast-check";
import { expect, inject, it } from "vitest";
import { HistoryFailed, runHistory } from "./run-history.ts";
import { admin } from "./service.ts";
import { Stats } from "./stats.ts";
import { floodSeed, type History, historyArb, x402Seed } from "./steps.ts";

const options = inject("sim");

/**
 * The property of one seed: the history must pass. While shrinking, a smaller history counts
 * as failing only if it breaks the invariant the original broke, so a shrunk history shows
 * that failure, not whichever simpler one it stumbles on.
 */
function sameFailure(seed: number, stats: Stats) {
  let target: string | null = null;
  return async (history: History) => {
    try {
      await runHistory(seed, history, stats);
    } catch (error) {
      const broke = error instanceof HistoryFailed ? error.violations.map((v) => v.invariant) : [];
      if (target === null) {
        // The original history (shrink runs that follow are not counted).
        for (const invariant of broke.length > 0 ? broke : ["error"])
          stats.violation(invariant, seed);
        target = broke[0] ?? "error";
      }
      if (broke.includes(target) || (target === "error" && broke.length === 0)) throw error;
    }
  };
}

/**
 * A safety net, not a budget (speed is the bench's): the project's 15 minutes, or 1 s per
 * history for a long run (`npm run simulate`'s 5,000 took 16 min on a busy machine once
 * quiescence waited for budget-deferred reads, and were cut off with 0 failed).
 */
function simulationTimeoutMs(runs: number): number {
  return Math.max(900_000, runs * 1_000);
}

it(
  `${options.seed ?? `${options.runs} seeded`} histories converge to the service's truth`,
  async () => {
    const stats = new Stats();
    const started = Date.now();
    // The merchant's balance for payouts and refunds (a refund needs the received crypto).
    await admin("/sandbox/balances", {
      body: { cryptoCurrencyCode: "USDT_TRC20", amount: "1000000" },
    });
    await admin("/sandbox/balances", { body: { cryptoCurrencyCode: "TRX", amount: "1000000" } });
    const seeds =
      options.seed !== null
        ? [options.seed]
        : Array.from({ length: options.runs }, (_, i) => options.seedBase + i);
    const shrunk: string[] = [];
    const play = async (seed: number) => {
      stats.histories += 1;
      const shrink = options.shrink && shrunk.length === 0;
      const keepTrace = shrink || options.seed !== null;
      try {
        await fc.assert(
          fc.asyncProperty(
            historyArb(options.maxSteps, x402Seed(seed), floodSeed(seed)),
            sameFailure(seed, stats),
          ),
          {
            seed,
            numRuns: 1,
            endOnFailure: !shrink,
            interruptAfterTimeLimit: 120_000,
          },
        );
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        const failed = cause instanceof HistoryFailed ? cause : null;
        // The original failure's first invariant (the one a shrunk history keeps).
        const first = failed?.violations[0];
        const failure = {
          seed,
          invariant: first?.invariant ?? "error",
          detail: first?.detail ?? String(error).slice(0, 300),
        };
        stats.failures.push(failure);
        // Said at once: a long run's failures can be replayed while it goes on.
        console.log(`failed: SIM_SEED=${seed} ${failure.invariant}: ${failure.detail}`);
        // Its trace too: a failure that needs its neighbours' interleaving may not replay alone.
        if (failed && !keepTrace) console.log(`trace of SIM_SEED=${seed}:\n${failed.message}`);
        if (keepTrace) {
          shrunk.push(`SIM_SEED=${seed}\n${(error as Error).message}\n${failed?.message ?? ""}`);
        }
      }
    };
    // Histories side by side (each its own order, its faults scoped to it), seeds in order.
    let next = 0;
    let done = 0;
    const lane = async () => {
      while (next < seeds.length) {
        await play(seeds[next++]!);
        done += 1;
        if (done % 500 === 0) console.log(stats.progress(Date.now() - started));
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, lane));
    console.log(stats.report(Date.now() - started));
    if (shrunk.length > 0)
      console.log(`first failure${options.shrink ? ", shrunk" : ""}:\n${shrunk[0]}`);
    expect(stats.failures.map((f) => `SIM_SEED=${f.seed} ${f.invariant}`)).toEqual([]);
  },
  simulationTimeoutMs(options.runs),
);
