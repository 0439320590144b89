/**
 * @module run-history
 * One history from start to verdict: open a fresh order, play the steps, bring everything to
 * rest, check the invariants. A failure carries the violations and the trace of answers.
 */
import { act } from "./act.ts";
import { checkInvariants, type Violation } from "./invariants.ts";
import { quiesce } from "./quiesce.ts";
import type { Stats } from "./stats.ts";
import type { History } from "./steps.ts";
import { World } from "./world.ts";

/** Thrown by a failing history: fast-check shrinks on it, the report prints it. */
export class HistoryFailed extends Error {
  readonly violations: Violation[];
  readonly trace: string[];
  constructor(violations: Violation[], trace: string[]) {
    super(
      [
        ...violations.map((v) => `${v.invariant}: ${v.detail}`),
        "trace:",
        ...trace.map((t) => `  ${t}`),
      ].join("\n"),
    );
    this.name = "HistoryFailed";
    this.violations = violations;
    this.trace = trace;
  }
}

/**
 * Plays `history` against the worker and the sandbox; throws {@link HistoryFailed} if any
 * invariant breaks.
 * @example
 * await runHistory(7, { amount: "49.90", steps: [{ k: "retry", bg: false }] }, stats);
 */
export async function runHistory(seed: number, history: History, stats: Stats): Promise<void> {
  let started = Date.now();
  const world = await World.open(seed, history.amount, stats);
  stats.time("open", started);
  try {
    for (const step of history.steps) await act(world, step);
    started = Date.now();
    await quiesce(world);
    stats.time("quiesce", started);
    started = Date.now();
    const violations = await checkInvariants(world);
    stats.time("check", started);
    if (violations.length > 0) throw new HistoryFailed(violations, world.trace);
  } finally {
    await world.watcher?.stop();
  }
}
