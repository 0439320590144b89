/**
 * @module
 * `node scripts/bench/variants-run.ts VARIANT…`: what workerd keeps per held SSE stream, per way
 * of holding it (`bench/variants/`; README "What a held stream costs"). For each VARIANT
 * (`s/<kind>`, `d/<kind>`: one object per stream, `d/<kind>/hub16`: 16 objects), a fresh
 * `wrangler dev` of the variants worker, `N` (1000) streams held by the bench's watchers, and
 * the RSS of its workerd processes with them open minus before (all of them / the runtime
 * alone: the proxy carries none), per 1,000. Env: `VCONFIG` (another wrangler config, e.g.
 * `bench/variants/wrangler.assets.toml`), `ROUTE` (a worker name sent as `MF-Route-Override`:
 * past the assets router). Run it in a network namespace of its own, one at a time.
 */
import { existsSync } from "node:fs";
import { startFloor } from "./floor.ts";
import { floorRuntimeUrl } from "./floor-watchers.ts";
import { sleep } from "./report.ts";
import { rssMb, workerdPids, workerdRssMb } from "./rss.ts";
import { runtimePids } from "./runtime.ts";
import { openWatchers } from "./watchers.ts";

process.env.TMPDIR = existsSync("/dev/shm") ? "/dev/shm" : process.env.TMPDIR;
process.env.X_LOCAL_OBSERVABILITY ??= "false";
const N = Number(process.env.N ?? 1000);

async function pool(urls: string[], init?: RequestInit) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < urls.length) await (await fetch(urls[next++]!, init)).arrayBuffer();
    }),
  );
}

for (const spec of process.argv.slice(2)) {
  const [route, kind, spread = "each"] = spec.split("/");
  const floor = await startFloor({
    config: process.env.VCONFIG ?? "bench/variants/wrangler.toml",
    readyPath: "/json",
  });
  try {
    const direct = await floorRuntimeUrl(floor.port);
    const objName = (i: number) =>
      spread === "each" ? `o-${i}` : `hub-${i % Number(spread.replace("hub", ""))}`;
    const empty = workerdRssMb(floor.port);
    if (route === "d" || route === "dr") {
      const names = [...new Set(Array.from({ length: N }, (_, i) => objName(i)))];
      await pool(
        names.map((n) => `${direct}/w/${n}`),
        { method: "POST" },
      );
      await sleep(1000);
    }
    const rt = runtimePids(floor.port);
    const all = workerdPids(floor.port);
    const before = workerdRssMb(floor.port);
    const beforeRt = rssMb(rt);
    const urls = Array.from({ length: N }, (_, i) =>
      route === "s" ? `${direct}/s/${kind}/${i}` : `${direct}/${route}/${kind}/${objName(i)}`,
    );
    const w = await openWatchers(
      urls,
      60_000,
      process.env.ROUTE ? { "MF-Route-Override": process.env.ROUTE } : {},
    );
    await sleep(2000);
    const open = workerdRssMb(floor.port);
    const openRt = rssMb(rt);
    const per = (mb: number) => ((mb * 1000) / Math.max(1, w.opened)).toFixed(1);
    console.log(
      `RESULT ${spec} opened=${w.opened} procs=${all.length}/${rt.length} empty=${empty.toFixed(0)} before=${before.toFixed(0)} open=${open.toFixed(0)} per1000=${per(open - before)} runtimeOnly=${per(openRt - beforeRt)} withObjects=${per(open - empty)}`,
    );
    await w.close();
  } finally {
    await floor.stop();
  }
}
process.exit(0);
