/**
 * @module stats
 * Counters of one simulation run: histories, steps and faults injected by kind, invariant
 * checks by name, and the seeds that failed. Printed at the end of every run.
 */

export class Stats {
  histories = 0;
  steps = 0;
  readonly injected = new Map<string, number>();
  readonly checks = new Map<string, number>();
  readonly failures: { seed: number; invariant: string; detail: string }[] = [];
  /** Seeds that broke each invariant (one history may break several). */
  readonly violated = new Map<string, number[]>();
  /** Wall time by phase (step kinds, quiescence, checks): where a run's minutes go. */
  readonly timeMs = new Map<string, number>();

  /** Records that the history of `seed` broke `invariant`. */
  violation(invariant: string, seed: number): void {
    const seeds = this.violated.get(invariant) ?? [];
    if (!seeds.includes(seed)) seeds.push(seed);
    this.violated.set(invariant, seeds);
  }

  /** Adds the wall time since `since` to `phase`. */
  time(phase: string, since: number): void {
    this.timeMs.set(phase, (this.timeMs.get(phase) ?? 0) + (Date.now() - since));
  }

  /** Counts one injected fault or event of `kind` (e.g. `upstream:read:5xx`). */
  inject(kind: string): void {
    this.injected.set(kind, (this.injected.get(kind) ?? 0) + 1);
  }

  /** Counts one evaluation of an invariant. */
  check(name: string): void {
    this.checks.set(name, (this.checks.get(name) ?? 0) + 1);
  }

  /** One progress line (long runs print one every 500 histories). */
  progress(wallMs: number): string {
    const phases = [...this.timeMs.entries()].map(([k, v]) => `${k} ${Math.round(v / 1000)}s`);
    return `… ${this.histories} histories, ${this.failures.length} failed, ${Math.round(wallMs / 1000)} s (${phases.join(", ")})`;
  }

  /**
   * The report printed after a run.
   * @example
   * console.log(new Stats().report(1234));
   */
  report(wallMs: number): string {
    const table = (m: Map<string, number>) =>
      [...m.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `  ${k.padEnd(34)} ${v}`)
        .join("\n");
    const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    return [
      `simulation: ${this.histories} histories, ${this.steps} steps, ${(wallMs / 1000).toFixed(1)} s`,
      `faults and events injected (${total(this.injected)}):`,
      table(this.injected),
      `invariant checks (${total(this.checks)}):`,
      table(this.checks),
      `failed histories: ${this.failures.length}`,
      ...[...this.violated.entries()].map(
        ([k, seeds]) =>
          `  ${k.padEnd(34)} ${seeds.length}  seeds ${seeds.slice(0, 12).join(" ")}${seeds.length > 12 ? " …" : ""}`,
      ),
      "wall time by phase (ms):",
      table(this.timeMs),
      "first failures:",
      ...this.failures.slice(0, 20).map((f) => `  SIM_SEED=${f.seed}  ${f.invariant}: ${f.detail}`),
    ].join("\n");
  }
}
