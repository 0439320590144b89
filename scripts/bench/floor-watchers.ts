/**
 * @module
 * The runtime's floor under the load stage's memory figure: `count` floor Durable Objects
 * (`bench/floor/`), each with one SQLite row and one SSE stream held open by one watcher, the
 * cheapest thing that does what a watched checkout does. Measured as the checkout is: workerd
 * RSS with the streams open minus before them (`floor_rss_mb_per_1000_watchers`), and with the
 * objects' own cost counted too, from before the first object was made
 * (`floor_rss_mb_per_1000_watched_objects`).
 *
 * Bounded: `count` objects and streams, every wait has a deadline, loopback only.
 */
import { keep, row, sleep } from "./report.ts";
import { workerdRssMb } from "./rss.ts";
import { runtimeUrl } from "./runtime.ts";
import { openWatchers } from "./watchers.ts";

/**
 * The floor worker's runtime URL past its `wrangler dev` proxy (the floor's `/json` answers a
 * `data` list); throws when it is not found.
 *
 * @example
 * const direct = await floorRuntimeUrl(floor.port);
 */
export async function floorRuntimeUrl(port: number): Promise<string> {
  const direct = await runtimeUrl(port, async (url) => {
    const res = await fetch(`${url}/json`, { signal: AbortSignal.timeout(2_000) });
    return res.ok && "data" in ((await res.json()) as object);
  });
  if (direct.endsWith(`:${port}`)) throw new Error("the floor's runtime not found");
  return direct;
}

/**
 * Makes `count` floor objects (one row each), then holds one stream on each; prints the rows
 * and keeps the floor's figures.
 *
 * @example
 * await floorWatchers({ port: floor.port, count: 1000, run: "x1" });
 */
export async function floorWatchers(o: { port: number; count: number; run: string }) {
  const direct = await floorRuntimeUrl(o.port);
  const names = Array.from({ length: o.count }, (_, i) => `watched-${o.run}-${i}`);
  const empty = workerdRssMb(o.port);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const res = await fetch(`${direct}/write/${name}`, { method: "POST" });
        await res.arrayBuffer();
      }
    }),
  );
  await sleep(1000);
  const before = workerdRssMb(o.port);
  const watchers = await openWatchers(names.map((name) => `${direct}/sse/${name}`));
  await sleep(2000);
  const open = workerdRssMb(o.port);
  await watchers.close();
  const per = (mb: number) => (mb * 1000) / Math.max(1, watchers.opened);
  row(
    `floor: ${o.count} objects with one row, then one SSE stream each: workerd RSS (MB)`,
    `${empty.toFixed(0)} → ${before.toFixed(0)} → ${open.toFixed(0)} (${watchers.opened} streams)`,
  );
  row(
    "floor: per 1,000 watchers (streams only) / per 1,000 watched objects (objects + streams)",
    `${per(open - before).toFixed(1)} / ${per(open - empty).toFixed(1)} MB`,
  );
  keep("floor_rss_mb_per_1000_watchers", per(open - before));
  keep("floor_rss_mb_per_1000_watched_objects", per(open - empty));
}
