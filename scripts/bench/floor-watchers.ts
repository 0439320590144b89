/**
 * @module
 * The runtime's floor under the load stage's memory figure: `count` floor Durable Objects
 * (`bench/floor/`), each with one SQLite row and one SSE stream held open by one watcher, the
 * cheapest thing that does what a watched checkout does. Measured as the checkout is: workerd
 * RSS with the streams open minus before them (`floor_rss_mb_per_1000_watchers`), and with the
 * objects' own cost counted too, from before the first object was made
 * (`floor_rss_mb_per_1000_watched_objects`); then the load stage's connect + disconnect rounds
 * (`floor_rss_growth_mb_over_rounds`).
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

/** Calls `call` for each name, 8 at a time, reading each answer to its end. */
async function pool(names: readonly string[], call: (name: string) => Promise<Response>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < names.length) await (await call(names[next++]!)).arrayBuffer();
    }),
  );
}

/**
 * Makes `count` floor objects (one row each), then holds one stream on each; prints the rows
 * and keeps the floor's figures.
 *
 * @example
 * await floorWatchers({ port: floor.port, count: 1000, run: "x1" });
 */
export async function floorWatchers(o: {
  port: number;
  count: number;
  run: string;
  /** Connect + disconnect rounds of the same watchers afterwards, as the load stage does. */
  rounds: number;
  /** Appended to the keys and the rows' label (`_fresh`: a runtime started for this pass). */
  suffix?: string;
}) {
  const suffix = o.suffix ?? "";
  const label = suffix ? `floor (${suffix.slice(1)} runtime)` : "floor";
  const direct = await floorRuntimeUrl(o.port);
  const names = Array.from({ length: o.count }, (_, i) => `watched-${o.run}-${i}`);
  const empty = workerdRssMb(o.port);
  await pool(names, (name) => fetch(`${direct}/write/${name}`, { method: "POST" }));
  await sleep(1000);
  const before = workerdRssMb(o.port);
  const watchers = await openWatchers(names.map((name) => `${direct}/sse/${name}`));
  await sleep(2000);
  const open = workerdRssMb(o.port);
  await watchers.close();
  const per = (mb: number) => (mb * 1000) / Math.max(1, watchers.opened);
  row(
    `${label}: ${o.count} objects with one row, then one SSE stream each: workerd RSS (MB)`,
    `${empty.toFixed(0)} → ${before.toFixed(0)} → ${open.toFixed(0)} (${watchers.opened} streams)`,
  );
  row(
    `${label}: per 1,000 watchers (streams only) / per 1,000 watched objects (objects + streams)`,
    `${per(open - before).toFixed(1)} / ${per(open - empty).toFixed(1)} MB`,
  );
  keep(`floor_rss_mb_per_1000_watchers${suffix}`, per(open - before));
  keep(`floor_rss_mb_per_1000_watched_objects${suffix}`, per(open - empty));
  const after: number[] = [];
  for (let r = 0; r < o.rounds; r++) {
    const w = await openWatchers(
      names.map((name) => `${direct}/sse/${name}`),
      20_000,
    );
    await w.close();
    // The floor's streams have no heartbeat, and a local workerd learns that a connection
    // closed only when it writes to it: a frame to every stream (twice, as the connect-and-abort
    // rounds do) ends the closed ones, as our heartbeat and probe do.
    for (let pass = 0; pass < 2; pass++) {
      await sleep(500);
      await pool(names, (name) =>
        fetch(`${direct}/fanout/${name}?status=probe`, { method: "POST" }),
      );
    }
    await sleep(1000);
    after.push(workerdRssMb(o.port));
  }
  if (after.length) {
    row(
      `floor: workerd RSS after each of ${o.rounds} connect + disconnect rounds (MB)`,
      after.map((m) => m.toFixed(0)).join(" "),
    );
    keep("floor_rss_growth_mb_over_rounds", after.at(-1)! - after[0]!);
  }
}
