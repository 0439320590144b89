/**
 * @module
 * The realistic load of `npm run bench`: `count` open checkouts with one SSE watcher each
 * while the sandbox sends `rate` webhooks a second for `seconds` (each a real status change:
 * processing ⇄ suspended, so every webhook must produce one event at its checkout's watcher).
 * Then workerd's memory per 1,000 watchers, and over `rounds` of connect + disconnect.
 *
 * Webhooks and watchers talk to the runtime directly, past `wrangler dev`'s proxy (see
 * `runtime.ts`); the sandbox's webhook destination is restored afterwards.
 *
 * Bounded in count and time: a fixed number of webhooks, every wait has a deadline, loopback
 * only.
 */
import { keep, ms, pct, row, sleep, sorted } from "./report.ts";
import { workerdRssMb } from "./rss.ts";
import { runtimeUrl } from "./runtime.ts";
import { openWatchers } from "./watchers.ts";

export interface LoadOptions {
  sandboxUrl: string;
  workerUrl: string;
  workerPort: number;
  /**
   * Opens checkout `i` (a fresh invoice number) through the worker at `baseUrl` and answers its
   * id and upstream orderId.
   */
  open(i: number, baseUrl: string): Promise<{ id: string; orderId: string }>;
  count: number;
  rate: number;
  seconds: number;
  rounds: number;
}

/** Runs `fn` over 0..n-1 with at most `width` in flight. */
async function pool(n: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

type Delivery = { orderId: string; status: string; attempts: { at: string }[] };

/** The realistic load; prints its rows and keeps its figures. */
export async function realisticLoad(o: LoadOptions): Promise<void> {
  const direct = await runtimeUrl(o.workerPort);
  row("load: worker reached at", direct === o.workerUrl ? `${direct} (via proxy)` : direct);
  // "all": the invoices carry the worker's public URL (the proxy) as their own webhookUrl.
  await setWebhookUrl(o.sandboxUrl, `${direct}/webhooks/payment`, true);
  try {
    await measure(o, direct);
  } finally {
    await setWebhookUrl(o.sandboxUrl, `${o.workerUrl}/webhooks/payment`, false);
  }
}

async function setWebhookUrl(sandboxUrl: string, url: string, all: boolean): Promise<void> {
  const res = await fetch(`${sandboxUrl}/sandbox/webhook-url`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url, all }),
  });
  if (!res.ok) throw new Error(`webhook-url: HTTP ${res.status}`);
  await res.arrayBuffer();
}

async function measure(o: LoadOptions, direct: string): Promise<void> {
  const checkouts: { id: string; orderId: string }[] = [];
  const t0 = performance.now();
  await pool(o.count, 8, async (i) => {
    checkouts[i] = await o.open(i, direct);
  });
  row(`load: ${o.count} checkouts opened and locked`, ms(performance.now() - t0));
  await sleep(1000);
  const rssBefore = workerdRssMb(o.workerPort);
  const urls = checkouts.map((c) => `${direct}/v1/checkouts/${c.id}/events`);
  const watchers = await openWatchers(urls);
  await sleep(2000);
  const rssOpen = workerdRssMb(o.workerPort);
  row("load: watchers connected (one per checkout)", `${watchers.opened} / ${o.count}`);

  // Webhook k goes to checkout k % count; its round decides the move (processing ⇄ suspended).
  const total = o.rate * o.seconds;
  const actions = ["processing", "suspend"];
  const failed: string[] = [];
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let k = 0; k < total; k++) {
    const due = start + (k * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const c = checkouts[k % o.count]!;
    const action = actions[Math.floor(k / o.count) % 2]!;
    sent.push(
      fetch(`${o.sandboxUrl}/sandbox/invoices/${c.orderId}/simulate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ action }),
      })
        .then(async (r) => {
          if (!r.ok) failed.push(`${r.status} ${(await r.text()).slice(0, 100)}`);
          else await r.arrayBuffer();
        })
        // The sandbox itself did not answer (it is CPU-bound at this rate here): a webhook
        // never sent, counted with the refused ones rather than ending the stage.
        .catch((error: Error) => {
          failed.push(`sandbox: ${error.message}`);
        }),
    );
  }
  await Promise.all(sent);
  const sendSeconds = (performance.now() - start) / 1000;
  const ours = new Set(checkouts.map((c) => c.orderId));
  let deliveries: Delivery[] = [];
  for (let i = 0; i < 60; i++) {
    const log = (await (await fetch(`${o.sandboxUrl}/sandbox/webhooks`)).json()) as {
      data: Delivery[];
    };
    deliveries = log.data.filter((d) => ours.has(d.orderId) && d.status !== "created");
    if (deliveries.length >= total - failed.length && deliveries.every((d) => d.attempts[0])) break;
    await sleep(500);
  }
  await sleep(2000);
  const events = await watchers.events();
  // Per checkout and status, the n-th webhook of that status meets the n-th event of it.
  const index = new Map(checkouts.map((c, i) => [c.orderId, i]));
  const seen = new Map<string, number>();
  const latencies: number[] = [];
  let lost = 0;
  for (const d of deliveries) {
    const at = d.attempts[0] ? Date.parse(d.attempts[0].at) : Number.NaN;
    const i = index.get(d.orderId)!;
    const key = `${i}:${d.status}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const match = events[i]!.filter(([s]) => s === d.status)[n];
    if (!match || Number.isNaN(at)) lost += 1;
    else latencies.push(match[1] - at);
  }
  const lat = sorted(latencies);
  row(
    `load: ${deliveries.length} webhooks in ${sendSeconds.toFixed(1)} s → SSE, p50 / p99 / max`,
    `${ms(pct(lat, 50))} / ${ms(pct(lat, 99))} / ${ms(lat.at(-1) ?? Number.NaN)}`,
    "target p99 ≤ 150 ms",
  );
  row("load: events lost", String(lost + failed.length), "target 0");
  if (failed.length) row("load: simulate calls refused", `${failed.length}: ${failed[0]}`);
  keep("load_1000_checkouts_webhook_sse_p99_ms", pct(lat, 99));
  keep("lost_events", lost + failed.length);
  await watchers.close();

  const perThousand = ((rssOpen - rssBefore) * 1000) / Math.max(1, watchers.opened);
  row(
    "workerd RSS: before watchers / with them / per 1,000 watchers",
    `${rssBefore.toFixed(0)} / ${rssOpen.toFixed(0)} / ${perThousand.toFixed(1)} MB`,
  );
  keep("workerd_rss_mb_per_1000_watchers", perThousand);

  const after: number[] = [];
  for (let r = 0; r < o.rounds; r++) {
    const w = await openWatchers(urls, 20_000);
    await w.close();
    await sleep(1000);
    after.push(workerdRssMb(o.workerPort));
  }
  row(
    `workerd RSS after each of ${o.rounds} connect + disconnect rounds (MB)`,
    after.map((m) => m.toFixed(0)).join(" "),
    "target: no growth",
  );
  keep(
    "workerd_rss_growth_mb_over_rounds",
    (after.at(-1) ?? Number.NaN) - (after[0] ?? Number.NaN),
  );
}
