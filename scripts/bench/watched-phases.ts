/**
 * @module
 * Whether a watched checkout's object stays resident (issue 19, stream hubs): two thousands of
 * watched checkouts, one after the other. The first `count` checkouts are opened and watched,
 * then rest `restMs` (past workerd's idle eviction of about 10 s); then a second `count` are
 * opened and watched. workerd's allocator keeps the pages it once used, so RSS cannot show an
 * evicted object directly; what it shows is whether the second thousand finds the first's
 * memory free to reuse: with every watched object resident (its streams in it) the second
 * thousand costs about as much as the first; with objects evicted between events only its
 * streams are new. Figures: `workerd_rss_mb_per_1000_watched_checkouts_first` and
 * `…_second` (RSS growth per 1,000 of each phase, measured 2 s after its watchers opened).
 *
 * Bounded: 2 × `count` checkouts and streams, every wait has a deadline, loopback only.
 */
import { keep, row, sleep } from "./report.ts";
import { workerdRssMb } from "./rss.ts";
import { runtimeUrl } from "./runtime.ts";
import { openWatchers } from "./watchers.ts";

/**
 * Runs the two phases against the worker on `workerPort`; prints and keeps the figures.
 *
 * @example
 * await watchedPhases({ workerPort, count: 1000, restMs: 20_000, open: (i, url) => openLocked(url, …) });
 */
export async function watchedPhases(o: {
  workerPort: number;
  count: number;
  restMs: number;
  open: (i: number, baseUrl: string) => Promise<{ id: string }>;
}): Promise<void> {
  const direct = await runtimeUrl(o.workerPort);
  const phase = async (from: number) => {
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < o.count) {
          const i = next++;
          ids[i] = (await o.open(from + i, direct)).id;
        }
      }),
    );
    const watchers = await openWatchers(ids.map((id) => `${direct}/v1/checkouts/${id}/events`));
    await sleep(2_000);
    return watchers;
  };
  const start = workerdRssMb(o.workerPort);
  const first = await phase(0);
  const afterFirst = workerdRssMb(o.workerPort);
  await sleep(o.restMs);
  const rested = workerdRssMb(o.workerPort);
  const second = await phase(o.count);
  const afterSecond = workerdRssMb(o.workerPort);
  const per = (mb: number, opened: number) => (mb * 1000) / Math.max(1, opened);
  const firstCost = per(afterFirst - start, first.opened);
  const secondCost = per(afterSecond - rested, second.opened);
  row(
    "phases: workerd RSS start / 1st thousand watched / rested / 2nd thousand watched (MB)",
    `${start.toFixed(0)} / ${afterFirst.toFixed(0)} / ${rested.toFixed(0)} / ${afterSecond.toFixed(0)}`,
  );
  row(
    "phases: RSS per 1,000 watched checkouts, 1st / 2nd thousand (objects + streams)",
    `${firstCost.toFixed(1)} / ${secondCost.toFixed(1)} MB (${first.opened} + ${second.opened} watchers)`,
  );
  keep("workerd_rss_mb_per_1000_watched_checkouts_first", firstCost);
  keep("workerd_rss_mb_per_1000_watched_checkouts_second", secondCost);
  await Promise.all([first.close(), second.close()]);
}
