/**
 * @module
 * Connect-and-abort rounds (issue 20, item 13): `rounds` times, `streams` SSE connections to
 * `checkouts` checkouts, each aborted by the client — half as soon as the answer's headers
 * arrive, half after the opening snapshot — then workerd's RSS a second later; after the last
 * round, RSS again once a heartbeat period (15 s) has passed, by which time workerd has tried to
 * write to every dead connection and cancelled its stream.
 *
 * Streams talk to the runtime directly, past `wrangler dev`'s proxy (`runtime.ts`). Bounded:
 * at most `width` connections in flight, every stream aborted within `timeoutMs`.
 */
import { keep, row, sleep } from "./report.ts";
import { workerdRssMb } from "./rss.ts";
import { runtimeUrl } from "./runtime.ts";

export interface AbortRoundsOptions {
  workerUrl: string;
  workerPort: number;
  /** Opens checkout `i` through the worker at `baseUrl`; answers its id. */
  open(i: number, baseUrl: string): Promise<{ id: string }>;
  checkouts: number;
  streams: number;
  rounds: number;
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

/** Runs the rounds; prints RSS per round and keeps the growth figures. */
export async function abortRounds(o: AbortRoundsOptions): Promise<void> {
  const direct = await runtimeUrl(o.workerPort);
  const ids: string[] = [];
  for (let i = 0; i < o.checkouts; i++) ids.push((await o.open(i, o.workerUrl)).id);
  const urls = ids.map((id) => `${direct}/v1/checkouts/${id}/events`);
  const before = workerdRssMb(o.workerPort);
  const after: number[] = [];
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
    await sleep(1000);
    after.push(workerdRssMb(o.workerPort));
  }
  await sleep(HEARTBEAT_MS + 2000);
  const settled = workerdRssMb(o.workerPort);
  const label = `${o.rounds} rounds of ${o.streams} connect-and-abort streams on ${o.checkouts} checkout(s)`;
  row(`workerd RSS before / after each of ${label} (MB)`, before.toFixed(0));
  row("  per round", after.map((m) => m.toFixed(0)).join(" "));
  row(
    "  a heartbeat after the last round; growth first → last round",
    `${settled.toFixed(0)} MB; ${((after.at(-1) ?? Number.NaN) - (after[0] ?? Number.NaN)).toFixed(0)} MB`,
    "target: flat (nothing kept per aborted stream)",
  );
  keep(
    "workerd_rss_growth_mb_over_abort_rounds",
    (after.at(-1) ?? Number.NaN) - (after[0] ?? Number.NaN),
  );
  keep("workerd_rss_mb_after_abort_rounds_settled", settled);
  keep("workerd_rss_mb_before_abort_rounds", before);
}
