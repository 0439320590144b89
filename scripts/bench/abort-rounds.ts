/**
 * @module
 * Connect-and-abort rounds (issue 20, item 13): `rounds` times, `streams` SSE connections to
 * `checkouts` checkouts, each aborted by the client — half as soon as the answer's headers
 * arrive, half after the opening snapshot — then, a second later, the memory of each process
 * of the stack (the runtime workerd, wrangler's proxy workerd, wrangler's node) and the used JS
 * heap of the worker's isolate (`heap.ts`); after the last round, all of it again once a
 * heartbeat period (15 s) has passed, by which time workerd has tried to write to every dead
 * connection and cancelled its stream. Then the same rounds on the floor worker
 * (`bench/floor`): its SSE streams, and its plain JSON answer (no stream at all). Printed: start
 * → end and the slope of the last 10 rounds (a leak keeps its slope; a high-water mark flattens).
 *
 * Streams talk to the runtime directly, past `wrangler dev`'s proxy (`runtime.ts`). Bounded:
 * at most `width` connections in flight, every stream aborted within `timeoutMs`.
 */

import { floorRuntimeUrl } from "./floor-watchers.ts";
import { workerHeapMb } from "./heap.ts";
import { keep, row, sleep } from "./report.ts";
import { rssMb, workerdPids, wranglerPid } from "./rss.ts";
import { runtimePids, runtimeUrl } from "./runtime.ts";

export interface AbortRoundsOptions {
  workerUrl: string;
  workerPort: number;
  /** Opens checkout `i` through the worker at `baseUrl`; answers its id. */
  open(i: number, baseUrl: string): Promise<{ id: string }>;
  checkouts: number;
  streams: number;
  rounds: number;
  /** The floor worker's stack, to run the same rounds against (bench/floor). */
  floor?: { port: number };
}

const WIDTH = 100;
const TIMEOUT_MS = 10_000;
const HEARTBEAT_MS = 15_000;

/** One stream: connect, maybe read the opening snapshot, abort. */
async function connectAndAbort(url: string, readFirst: boolean): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    const res = await fetch(url, { signal: abort.signal });
    if (readFirst) await res.body?.getReader().read();
  } catch {
    // Aborted by the timeout: counted as any other abort.
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** Memory of one stack after a round: each process's RSS and the isolate's live JS heap. */
interface Sample {
  runtime: number;
  proxy: number;
  node: number;
  heap: number | null;
}

async function sample(port: number): Promise<Sample> {
  const runtime = runtimePids(port);
  const wrangler = wranglerPid(port);
  return {
    runtime: rssMb(runtime),
    proxy: rssMb(workerdPids(port).filter((pid) => !runtime.includes(pid))),
    node: rssMb(wrangler ? [wrangler] : []),
    heap: await workerHeapMb(port),
  };
}

/**
 * Least-squares slope (MB per round) of the last `n` values; NaN with fewer than two.
 *
 * @example
 * slope([1, 2, 3], 3) // 1
 */
export function slope(values: readonly number[], n: number): number {
  const ys = values.slice(-n);
  if (ys.length < 2) return Number.NaN;
  const mean = (list: readonly number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  const xs = ys.map((_, i) => i);
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (const [i, x] of xs.entries()) {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  }
  return num / den;
}

/** `rounds` rounds of `streams` connect-and-abort streams over `urls`; a sample after each. */
async function runRounds(
  port: number,
  urls: readonly string[],
  o: { streams: number; rounds: number },
  afterRound: () => Promise<void>,
): Promise<{ before: Sample; after: Sample[]; settled: Sample }> {
  const before = await sample(port);
  const after: Sample[] = [];
  for (let r = 0; r < o.rounds; r++) {
    let next = 0;
    await Promise.all(
      Array.from({ length: WIDTH }, async () => {
        while (next < o.streams) {
          const i = next++;
          await connectAndAbort(urls[i % urls.length]!, i % 2 === 1);
        }
      }),
    );
    await afterRound();
    await sleep(1000);
    after.push(await sample(port));
    if (process.env.BENCH_PROGRESS) console.error(`round ${r + 1}`, JSON.stringify(after.at(-1)));
  }
  await sleep(HEARTBEAT_MS + 2000);
  return { before, after, settled: await sample(port) };
}

const runtimeSeries = (run: { after: Sample[] }) => run.after.map((s) => s.runtime);

const mb = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n) ? "—" : n.toFixed(0);

/** Prints one stack's rounds: RSS per process and heap, start → end, slope of the last 10. */
function report(label: string, run: { before: Sample; after: Sample[]; settled: Sample }): void {
  const { before, after, settled } = run;
  const last = after.at(-1);
  for (const key of ["runtime", "proxy", "node", "heap"] as const) {
    const series = after.map((s) => s[key] ?? Number.NaN);
    row(
      `  ${label} ${key === "heap" ? "JS heap used" : `${key} RSS`} (MB)`,
      `${mb(before[key])} → ${mb(last?.[key])}; settled ${mb(settled[key])}`,
      `slope of the last 10 rounds ${slope(series, 10).toFixed(2)} MB/round`,
    );
    row("    per round", series.map((m) => mb(m)).join(" "));
  }
}

/** Runs the rounds; prints RSS per round and keeps the growth figures. */
export async function abortRounds(o: AbortRoundsOptions): Promise<void> {
  const direct = await runtimeUrl(o.workerPort);
  const ids: string[] = [];
  for (let i = 0; i < o.checkouts; i++) ids.push((await o.open(i, o.workerUrl)).id);
  const urls = ids.map((id) => `${direct}/v1/checkouts/${id}/events`);
  const label = `${o.rounds} rounds of ${o.streams} connect-and-abort streams on ${o.checkouts} checkout(s)`;
  row(`workerd memory over ${label}`, "", "target: flat (nothing kept per aborted stream)");
  const ours = await runRounds(o.workerPort, urls, o, async () => {});
  report("ours", ours);
  const runtime = runtimeSeries(ours);
  keep("workerd_rss_growth_mb_over_abort_rounds", (runtime.at(-1) ?? NaN) - (runtime[0] ?? NaN));
  keep("workerd_rss_mb_before_abort_rounds", ours.before.runtime);
  keep("workerd_rss_mb_after_abort_rounds_settled", ours.settled.runtime);
  keep("workerd_rss_slope_mb_per_abort_round_last_10", slope(runtime, 10));
  if (o.floor) {
    // The floor's streams (bench/floor) have no heartbeat: a frame written to every stream of
    // each name after a round (twice: a local workerd learns a closed connection only when it
    // writes to it) ends the dead ones, as our probe does.
    const floor = o.floor;
    const floorDirect = await floorRuntimeUrl(floor.port);
    const names = Array.from({ length: o.checkouts }, (_, i) => `abort-${i}`);
    const fanout = async () => {
      for (const name of names)
        await fetch(`${floorDirect}/fanout/${name}?status=probe`, { method: "POST" })
          .then((r) => r.arrayBuffer())
          .catch(() => undefined);
    };
    const base = await runRounds(
      floor.port,
      names.map((name) => `${floorDirect}/sse/${name}`),
      o,
      async () => {
        await fanout();
        await sleep(500);
        await fanout();
      },
    );
    report("floor", base);
    keep("floor_rss_slope_mb_per_abort_round_last_10", slope(runtimeSeries(base), 10));
    // No stream at all: the same client connecting and aborting on a plain JSON answer.
    const plain = await runRounds(floor.port, [`${floorDirect}/json`], o, async () => {});
    report("floor, plain answers", plain);
    keep("floor_plain_rss_slope_mb_per_abort_round_last_10", slope(runtimeSeries(plain), 10));
  }
}
