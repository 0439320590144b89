/**
 * @module
 * Memory per 1,000 watchers, ours and the floor's, each in a fresh runtime with the same
 * history (nothing run in it before): a workerd that already grew and freed memory grows less
 * for the same streams (README, "The memory floor depends on what ran before it"), so the load
 * stage's figures, taken after other stages, compare runtimes with different pasts. Here each
 * side gets its own new stack: ours opens `count` checkouts, makes their objects resident and
 * holds one stream on each (as the load stage measures); the floor makes `count` objects with one
 * row and holds one stream on each (`floor-watchers.ts`, no rounds). Keys
 * `workerd_rss_mb_per_1000_watchers_fresh`, `floor_rss_mb_per_1000_watchers_fresh` and their
 * ratio `workerd_rss_fresh_vs_floor`.
 *
 * Bounded: `count` checkouts and streams per side, every wait has a deadline, loopback only.
 */
import type { DemoStack } from "../../demo/run.ts";
import type { Floor } from "./floor.ts";
import { floorWatchers } from "./floor-watchers.ts";
import { workerHeapMb } from "./heap.ts";
import { pool } from "./load.ts";
import { figures, keep, row, sleep } from "./report.ts";
import { workerdRssMb } from "./rss.ts";
import { pastRouterHeaders, runtimeUrl } from "./runtime.ts";
import { openWatchers } from "./watchers.ts";

/** What the fresh passes need from the bench. */
export interface FreshOptions {
  /** Starts a new stack of ours (fresh runtime). */
  startOurs: () => Promise<DemoStack>;
  /** Starts a new floor worker (fresh runtime). */
  startFloor: () => Promise<Floor>;
  /** Opens and locks one checkout at `baseUrl` (client `i`); answers its id. */
  open: (i: number, baseUrl: string) => Promise<{ id: string }>;
  count: number;
  run: string;
}

/**
 * Ours: `count` checkouts resident, then one watcher each; RSS per 1,000 watchers, kept as
 * `key`. `pastRouter`: the streams bypass the assets router (each stream through it holds a
 * second request and pipe in the same runtime).
 */
async function ours(o: FreshOptions, pastRouter: boolean, key: string): Promise<void> {
  const demo = await o.startOurs();
  try {
    const direct = await runtimeUrl(demo.ports.worker);
    const ids: string[] = [];
    await pool(o.count, 8, async (i) => {
      ids[i] = (await o.open(i, direct)).id;
    });
    // Every object resident before "before", as the load stage does (`load.ts`).
    await pool(o.count, 16, async (i) => {
      await (await fetch(`${direct}/v1/checkouts/${ids[i]}`)).arrayBuffer();
    });
    await sleep(1000);
    const before = workerdRssMb(demo.ports.worker);
    const heapBefore = await workerHeapMb(demo.ports.worker);
    const watchers = await openWatchers(
      ids.map((id) => `${direct}/v1/checkouts/${id}/events`),
      60_000,
      pastRouter ? pastRouterHeaders() : {},
    );
    await sleep(2000);
    const open = workerdRssMb(demo.ports.worker);
    const heapOpen = await workerHeapMb(demo.ports.worker);
    await watchers.close();
    const per = ((open - before) * 1000) / Math.max(1, watchers.opened);
    row(
      `fresh runtime: ours${pastRouter ? ", past the assets router" : ""}, workerd RSS before → with watchers / per 1,000`,
      `${before.toFixed(0)} → ${open.toFixed(0)} / ${per.toFixed(1)} MB`,
      `${watchers.opened} streams; JS heap ${heapBefore?.toFixed(1)} → ${heapOpen?.toFixed(1)} MB`,
    );
    keep(key, per);
  } finally {
    await demo.stop();
  }
}

/**
 * Ours, then the floor, each on a stack of its own started for it; prints both and the ratio.
 *
 * @example
 * await freshWatchers({ startOurs, startFloor, open, count: 1000, run });
 */
export async function freshWatchers(o: FreshOptions): Promise<void> {
  for (const [pastRouter, key] of [
    [false, "workerd_rss_mb_per_1000_watchers_fresh"],
    [true, "workerd_rss_mb_per_1000_watchers_fresh_past_router"],
  ] as const) {
    await ours(o, pastRouter, key).catch((error: Error) =>
      row("fresh runtime: ours", `failed: ${error.message.split("\n")[0]}`),
    );
  }
  const floor = await o.startFloor();
  try {
    await floorWatchers({
      port: floor.port,
      count: o.count,
      run: o.run,
      rounds: 0,
      suffix: "_fresh",
    });
  } catch (error) {
    row("fresh runtime: floor", `failed: ${(error as Error).message.split("\n")[0]}`);
  } finally {
    await floor.stop();
  }
  const floorMb = figures.floor_rss_mb_per_1000_watchers_fresh ?? Number.NaN;
  const past = (figures.workerd_rss_mb_per_1000_watchers_fresh_past_router ?? Number.NaN) / floorMb;
  const via = (figures.workerd_rss_mb_per_1000_watchers_fresh ?? Number.NaN) / floorMb;
  row(
    "fresh runtimes: ours / the floor per 1,000 watchers, past / through the router",
    `${past.toFixed(2)}× / ${via.toFixed(2)}×`,
    "the floor has no assets router",
  );
  if (Number.isFinite(past)) keep("workerd_rss_fresh_vs_floor", past);
  if (Number.isFinite(via)) keep("workerd_rss_fresh_via_router_vs_floor", via);
}
