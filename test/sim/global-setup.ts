/**
 * Global setup of the sim project: the worker tests' sandbox (a fresh one for this project),
 * plus the run's options read from the shell (workerd has no process.env of its own).
 */
import type { TestProject } from "vitest/node";
import workerSetup from "../worker/global-setup.ts";

export interface SimOptions {
  /** Histories to run (`SIM_RUNS`, default 200). */
  runs: number;
  /** First seed (`SIM_SEED_BASE`); seeds are base, base+1, … */
  seedBase: number;
  /** Replay exactly this seed (`SIM_SEED`), shrinking its failure. */
  seed: number | null;
  /** Steps per history at most (`SIM_STEPS`, default 14). */
  maxSteps: number;
  /** Shrink the first failure (`SIM_SHRINK=0` turns it off). */
  shrink: boolean;
  /** Histories played side by side (`SIM_CONCURRENCY`, default 4): faults are per order. */
  concurrency: number;
}

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer`);
  return n;
}

export default async function setup(project: TestProject) {
  const teardown = await workerSetup(project);
  const seed = process.env.SIM_SEED ? int("SIM_SEED", 0) : null;
  project.provide("sim", {
    runs: int("SIM_RUNS", 200),
    // A fixed default base keeps `npm test` reproducible; `npm run simulate` picks fresh seeds.
    seedBase: int("SIM_SEED_BASE", 1),
    seed,
    maxSteps: int("SIM_STEPS", 14),
    shrink: process.env.SIM_SHRINK !== "0",
    concurrency: Math.max(1, int("SIM_CONCURRENCY", 4)),
  } satisfies SimOptions);
  return teardown;
}

declare module "vitest" {
  export interface ProvidedContext {
    sim: SimOptions;
  }
}
