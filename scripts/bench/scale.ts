/**
 * @module
 * The core at scale (issue 19): what many open checkouts cost the runtime and the service's
 * rate limit, on stacks of their own (`startDemo` with the vars each pass needs):
 *
 * 1. the shipped budget (`UPSTREAM_MAX_RPS` unset: 10) against a sandbox limited to 20 requests
 *    a second per key (`SANDBOX_RATE_LIMIT=20`): `watched` checkouts open, one watcher each, no
 *    webhooks: runtime CPU and the service's reads per second at rest
 *    (`idle_cpu_ms_per_s_1000_watchers`, `upstream_reads_per_s_1000_watched`); then 100 new
 *    checkouts over 10 s: how many a shopper saw fail (`throttled_creates_failed`), how long
 *    the median and the slowest took (`throttled_create_p50_ms`, `throttled_create_max_ms`: the
 *    budget's queue, first come first served) and how many 429s the service answered;
 * 2. `open` checkouts, nobody watching, budget 200 (so opening them is quick): the service's
 *    reads per second at rest (`upstream_reads_per_s_10000_open`).
 *
 * Run only these passes: `BENCH_SKIP=sizes,create,currencies,fanout,load,paint npm run bench`.
 */
import type { DemoStack } from "../../demo/run.ts";
import { cpuRate } from "./load.ts";
import { keep, row, sleep } from "./report.ts";
import { runtimePids } from "./runtime.ts";
import { openWatchers } from "./watchers.ts";

/** What the passes need from the bench. */
export interface ScaleOptions {
  start: (vars: {
    workerVars: Record<string, string>;
    sandboxVars: Record<string, string>;
  }) => Promise<DemoStack>;
  /** Opens one checkout (client k, a distinct address); answers its id. */
  open: (workerUrl: string, sub: string, client: number) => Promise<Response>;
  watched: number;
  open10k: number;
  /** How long each rest is measured. */
  seconds: number;
  creates: number;
  createSeconds: number;
  run: string;
}

/** Reads the service answered since `since` (every GET: single reads and list pages). */
async function upstreamReads(sandboxUrl: string, since: string): Promise<number> {
  const q = new URLSearchParams({ method: "GET", since });
  const res = await fetch(`${sandboxUrl}/sandbox/requests?${q}`);
  const { data } = (await res.json()) as { data: { path: string }[] };
  return data.filter((r) => r.path.startsWith("/invoice") || r.path.startsWith("/deposit")).length;
}

/** Statuses the service answered since `since`. */
async function statusesSince(sandboxUrl: string, since: string): Promise<number[]> {
  const res = await fetch(`${sandboxUrl}/sandbox/requests?${new URLSearchParams({ since })}`);
  return ((await res.json()) as { data: { status: number }[] }).data.map((r) => r.status);
}

interface ErrorBody {
  error?: { code?: string };
}

/** Opens `count` checkouts, `parallel` at a time; answers their ids (failures skipped). */
async function openMany(
  o: ScaleOptions,
  workerUrl: string,
  prefix: string,
  count: number,
  parallel = 16,
): Promise<string[]> {
  const ids: string[] = [];
  const failed = new Map<string, number>();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const asked = performance.now();
      const res = await o.open(workerUrl, `${prefix}-${i}`, 200_000 + i).catch(() => null);
      if (res?.ok) {
        ids.push(((await res.json()) as { data: { id: string } }).data.id);
        continue;
      }
      const body = res ? await res.text() : "";
      const code = body.startsWith("{") ? (JSON.parse(body) as ErrorBody).error?.code : "";
      const what = `${res?.status ?? "no answer"} ${code ?? ""} after ~${Math.round((performance.now() - asked) / 1000)} s`;
      failed.set(what, (failed.get(what) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  if (failed.size > 0)
    row(
      `scale: what the failed opens answered (${prefix})`,
      [...failed].map(([what, n]) => `${what} × ${n}`).join(", "),
    );
  return ids;
}

/** Pass 1: watched checkouts at rest under the shipped budget, then creates under the limit. */
async function watchedPass(o: ScaleOptions): Promise<void> {
  const stack = await o.start({ workerVars: {}, sandboxVars: { SANDBOX_RATE_LIMIT: "20" } });
  try {
    const { workerUrl, sandboxUrl } = stack.urls;
    const t0 = performance.now();
    const ids = await openMany(o, workerUrl, `scale-w-${o.run}`, o.watched);
    row(
      `scale: ${o.watched} checkouts opened under the budget (10/s) / seconds`,
      `${ids.length} / ${((performance.now() - t0) / 1000).toFixed(0)}`,
    );
    const watchers = await openWatchers(ids.map((id) => `${workerUrl}/v1/checkouts/${id}/events`));
    row("scale: watchers connected", `${watchers.opened} / ${ids.length}`);
    await sleep(5_000);
    const runtime = runtimePids(stack.ports.worker);
    const from = new Date().toISOString();
    const cpu = await cpuRate(runtime, o.seconds * 1000);
    const reads = (await upstreamReads(sandboxUrl, from)) / o.seconds;
    row(
      `scale: ${watchers.opened} watchers, no webhooks: runtime CPU (ms per s) / service reads per s`,
      `${cpu.toFixed(0)} / ${reads.toFixed(1)}`,
      "was 493 / 100; target ≤ 50 / ≤ 2",
    );
    keep("idle_cpu_ms_per_s_1000_watchers", cpu);
    keep("upstream_reads_per_s_1000_watched", reads);

    const createsFrom = new Date().toISOString();
    const gap = (o.createSeconds * 1000) / o.creates;
    const answers: Promise<{ status: number; code: string }>[] = [];
    const tookMs: number[] = [];
    for (let i = 0; i < o.creates; i += 1) {
      const asked = performance.now();
      answers.push(
        o
          .open(workerUrl, `scale-c-${o.run}-${i}`, 300_000 + i)
          .then(async (r) => {
            const body = await r.text();
            tookMs.push(performance.now() - asked);
            if (r.ok) return { status: r.status, code: "" };
            const code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? "";
            return { status: r.status, code };
          })
          .catch((e: Error) => ({ status: 0, code: e.message })),
      );
      await sleep(gap);
    }
    const answered = await Promise.all(answers);
    const statuses = answered.map((a) => a.status);
    const failed = statuses.filter((s) => s < 200 || s >= 300).length;
    // What a shopper saw when a create failed: "429 budget_wait × 3", so the cause is named.
    const seen = new Map<string, number>();
    for (const a of answered.filter((x) => x.status < 200 || x.status >= 300)) {
      const what = `${a.status} ${a.code}`.trim();
      seen.set(what, (seen.get(what) ?? 0) + 1);
    }
    if (seen.size > 0) {
      row(
        "scale: what the failed creates answered",
        [...seen].map(([what, n]) => `${what} × ${n}`).join(", "),
      );
    }
    const refused = (await statusesSince(sandboxUrl, createsFrom)).filter((s) => s === 429).length;
    row(
      `scale: ${o.creates} new checkouts over ${o.createSeconds} s beside them (key limited to 20/s): failed / service 429s`,
      `${failed} / ${refused}`,
      "target 0 failed",
    );
    keep("throttled_creates_failed", failed);
    tookMs.sort((a, b) => a - b);
    const p50 = tookMs[Math.floor(tookMs.length / 2)] ?? 0;
    const slowest = tookMs.at(-1) ?? 0;
    row(
      "scale: those creates, answered in (ms): median / slowest",
      `${p50.toFixed(0)} / ${slowest.toFixed(0)}`,
    );
    keep("throttled_create_p50_ms", p50);
    keep("throttled_create_max_ms", slowest);
    await watchers.close();
  } finally {
    await stack.stop();
  }
}

/** Pass 2: many open checkouts nobody watches. */
async function openPass(o: ScaleOptions): Promise<void> {
  const stack = await o.start({ workerVars: { UPSTREAM_MAX_RPS: "200" }, sandboxVars: {} });
  try {
    const { workerUrl, sandboxUrl } = stack.urls;
    const t0 = performance.now();
    const ids = await openMany(o, workerUrl, `scale-o-${o.run}`, o.open10k, 32);
    row(
      `scale: ${o.open10k} checkouts opened (budget 200/s) / seconds`,
      `${ids.length} / ${((performance.now() - t0) / 1000).toFixed(0)}`,
    );
    const from = new Date().toISOString();
    await sleep(o.seconds * 1000);
    const reads = (await upstreamReads(sandboxUrl, from)) / o.seconds;
    row(
      `scale: ${ids.length} open checkouts, nobody watching: service reads per s`,
      reads.toFixed(1),
      "target ≤ 20",
    );
    keep("upstream_reads_per_s_10000_open", reads);
  } finally {
    await stack.stop();
  }
}

/**
 * Runs both passes (see the module header).
 *
 * @example
 * await scalePasses({ start, open, watched: 1000, open10k: 10000, seconds: 30, creates: 100, createSeconds: 10, run });
 */
export async function scalePasses(o: ScaleOptions): Promise<void> {
  await watchedPass(o).catch((e: Error) => row("scale: watched pass", `failed: ${e.message}`));
  await openPass(o).catch((e: Error) => row("scale: open pass", `failed: ${e.message}`));
}
