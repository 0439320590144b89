/**
 * @module run-history
 * One history from start to verdict: open a fresh order, play the steps, bring everything to
 * rest, check the invariants. A failure carries the violations and the trace of answers.
 */

import { INVARIANT_BROKEN } from "../../worker/core/converge/invariant.ts";
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
  // A history that never comes to rest is a failure too (a hung call, a lane that never
  // frees): it is reported with its seed instead of stalling the run.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const trace: string[] = [];
  // Where the history is (the final report prints only a failure's detail: a hang names it).
  const at = { phase: "open" };
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stats.inject("history:hung");
      const last = trace.slice(-HUNG_TRACE_LINES).join(" | ").slice(-HUNG_TRACE_CHARS);
      const detail = `not at rest after ${HUNG_MS} ms, in ${at.phase}; last: ${last}`;
      reject(new HistoryFailed([{ invariant: "history-comes-to-rest", detail }], trace));
    }, HUNG_MS);
  });
  try {
    await Promise.race([play(seed, history, stats, trace, at), hung]);
  } catch (error) {
    // An invariant the worker asserted itself (`worker/core/converge/invariant.ts`), thrown out of
    // an alarm or a read while the history came to rest: reported under its own name.
    const message = error instanceof Error ? error.message : String(error);
    const at = message.indexOf(INVARIANT_BROKEN);
    if (error instanceof HistoryFailed || at < 0) throw error;
    throw new HistoryFailed([{ invariant: "runtime-invariant", detail: message.slice(at) }], trace);
  } finally {
    clearTimeout(timer);
  }
}

/** Real time a history may take before it counts as hung (histories take ~0.1–1 s). */
const HUNG_MS = 30_000;
/** How much of a hung history's trace its detail carries. */
const HUNG_TRACE_LINES = 6;
const HUNG_TRACE_CHARS = 600;

async function play(
  seed: number,
  history: History,
  stats: Stats,
  trace: string[],
  at: { phase: string },
) {
  let started = Date.now();
  const world = await World.open(seed, history.amount, stats, trace);
  stats.time("open", started);
  try {
    for (const [i, step] of history.steps.entries()) {
      at.phase = `step ${i + 1} of ${history.steps.length} (${step.k})`;
      await act(world, step);
    }
    at.phase = "quiescence";
    started = Date.now();
    await quiesce(world);
    stats.time("quiesce", started);
    at.phase = "the checks";
    started = Date.now();
    const violations = await checkInvariants(world);
    stats.time("check", started);
    if (violations.length > 0) throw new HistoryFailed(violations, world.trace);
  } finally {
    await world.watcher?.stop();
  }
}
