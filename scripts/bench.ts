/**
 * @module
 * `npm run bench [-- --json FILE]`: crypto-checkout's figures beside the runtime's own floor,
 * measured in the same run (never asserted by tests — timing on shared machines flakes).
 *
 * Starts the real stack (sandbox + `wrangler dev` + storefront) and, under the same wrangler,
 * the floor worker `bench/floor/` (a JSON route, a Durable Object that writes one SQLite row,
 * one that fans one SSE frame out), all on loopback, and measures:
 *
 * 1. sizes: what an in-page shopper downloads before the currency picker, worker bundle;
 * 2. checkout create: the worker's added latency over the sandbox, beside one write to a warm
 *    DO and one to a new DO (each checkout is a new one), and beside the create's shape with
 *    nothing of ours (a new DO writes, calls the sandbox's cheapest route, writes again);
 * 3. 1,000 concurrent `GET /v1/currencies`, beside 1,000 JSON answers;
 * 4. fan-out: 1,000 SSE watchers on one checkout, webhook → event p99 for the first event
 *    after connecting and a later one, beside one frame fanned out to 1,000 floor streams;
 * 5. realistic load: 1,000 checkouts with one watcher each, 100 webhooks/s for 30 s, after a
 *    pass at 30/s (where this machine's knee is); workerd memory per 1,000 watchers and over 10
 *    connect + disconnect rounds; beside it the floor: as many floor objects, each with one row
 *    and one SSE stream (`bench/floor-watchers.ts`);
 * 6. widget first paint in Chromium (4× CPU, slow 4G);
 * 7. the order list: a page of 50 out of 100,000 orders seeded into the account index
 *    (`bench/index/`, its own `wrangler dev`), p50 and p99.
 * 8. connect-and-abort rounds: workerd memory (RSS per process, the isolate's JS heap) over
 *    BENCH_ABORT_ROUNDS (30) rounds of BENCH_ABORT_STREAMS (500) SSE streams aborted by the
 *    client, then the same rounds on the floor worker (issue 20, item 13);
 * 9. watched phases (`bench/watched-phases.ts`): a second thousand of watched checkouts after
 *    the first rested past workerd's idle eviction: does a watched checkout stay resident?
 * 10. fresh runtimes (`bench/fresh-watchers.ts`, stacks of their own): memory per 1,000
 *    watchers, ours (through the assets router and past it) and the floor's, each in a runtime
 *    where nothing ran before, and their ratio;
 * 11. the core at scale (`bench/scale.ts`, stacks of its own): watched checkouts at rest under the
 *    shipped upstream budget, new checkouts under a per-key limit, many open checkouts at rest.
 * 12. the lock flood (`bench/lock-flood.ts`, a stack of its own with the shipped budget and
 *    limits): another shopper's create + lock and the doctor, with no attack and while 4
 *    addresses × 30 checkouts re-lock alternate currencies for 60 s; the attacker's share of
 *    the calls at the service.
 *
 * Options (env): BENCH_WATCHERS (1000), BENCH_WATCHER_THREADS (4), BENCH_CREATES (100),
 * BENCH_CURRENCY_REQUESTS (1000), BENCH_SETTLE_MS (3000), BENCH_LOAD_CHECKOUTS (1000),
 * BENCH_LOAD_RATE (30,100: one pass per rate, the highest gives the figures),
 * BENCH_LOAD_SECONDS (30), BENCH_LOAD_ROUNDS (10), BENCH_LOAD_SETTLE_MS (15000: rest before the
 * load's quiet baseline), BENCH_STATE_DIR (/dev/shm when it exists:
 * where wrangler keeps local Durable Object storage),
 * BENCH_ORDERS (100000), BENCH_ORDERS_REQUESTS (300),
 * BENCH_ABORT_ROUNDS (30), BENCH_ABORT_STREAMS (500), BENCH_ABORT_CHECKOUTS (10),
 * BENCH_SCALE_WATCHED (1000), BENCH_SCALE_OPEN (10000), BENCH_SCALE_SECONDS (30),
 * BENCH_PHASE_CHECKOUTS (1000), BENCH_PHASE_REST_MS (20000), BENCH_X402_ROUNDS (50),
 * BENCH_FLOOD_CLIENTS (4), BENCH_FLOOD_CHECKOUTS (30), BENCH_FLOOD_SECONDS (60),
 * BENCH_FLOOD_BASELINE_SECONDS (20), BENCH_FLOOD_GAP_MS (6000: one re-lock per checkout),
 * BENCH_FLOOD_VICTIM_GAP_MS (500), BENCH_FLOOD_DOCTOR_GAP_MS (2000),
 * BENCH_SKIP=sizes,create,x402,currencies,fanout,load,floor-webhooks,paint,orders,aborts,phases,fresh,scale,flood
 * (stages to skip; aborts-floor: the connect-and-abort rounds without the floor's; fresh:
 * memory per 1,000 watchers, ours and the floor's, each on a stack started for it
 * (`bench/fresh-watchers.ts`); the scale stage alone:
 * BENCH_SKIP=sizes,create,currencies,fanout,load,floor-webhooks,paint,orders,aborts,phases,fresh;
 * the floor's webhook pass alone: every stage but floor-webhooks).
 *
 * BENCH_PAST_ROUTER=1: the load stage's webhooks and watchers carry `MF-Route-Override`
 * (`bench/runtime.ts`): past the static-assets router that `[assets]` makes `wrangler dev` run
 * in front of our worker in the same workerd (deployed, it is Cloudflare's, not in our
 * runtime); every key is kept, `load_past_router` (1 or 0) says which way the run went. The
 * create stage keeps its keys (through the proxy and the router) and adds creates on the
 * runtime's own socket, through the router and past it, alternating
 * (`checkout_create_direct_added_p50_ms`, `checkout_create_direct_past_router_added_p50_ms`),
 * and the floor's new-object write on its runtime's socket (`floor_new_do_write_direct_p50_ms`).
 *
 * The main stack runs with `UPSTREAM_MAX_RPS=1000`: its stages measure the worker, not the
 * budget's pacing (a sequential create loop runs faster than the shipped 10 a second).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startDemo } from "../demo/run.ts";
import { mintCheckoutToken } from "../packages/server/src/index.ts";
import { abortRounds } from "./bench/abort-rounds.ts";
import { firstPaint } from "./bench/first-paint.ts";
import { startFloor } from "./bench/floor.ts";
import { floorRuntimeUrl, floorWatchers } from "./bench/floor-watchers.ts";
import { floorWebhooks } from "./bench/floor-webhooks.ts";
import { freshWatchers } from "./bench/fresh-watchers.ts";
import { realisticLoad } from "./bench/load.ts";
import { lockFlood } from "./bench/lock-flood.ts";
import { ordersListBench } from "./bench/orders-list.ts";
import { figuresJson, kb, keep, ms, pct, ratioRow, row, sleep, sorted } from "./bench/report.ts";
import { pastRouterHeaders, runtimeUrl } from "./bench/runtime.ts";
import { scalePasses } from "./bench/scale.ts";
import { watchedPhases } from "./bench/watched-phases.ts";
import { openWatchers } from "./bench/watchers.ts";
import { x402Pay } from "./bench/x402-pay.ts";
import { DEMO_MERCHANT_SECRETS, SANDBOX_CREDENTIALS } from "./dev-vars.ts";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const WATCHERS = env("BENCH_WATCHERS", 1000);
const CREATES = env("BENCH_CREATES", 100);
const CURRENCY_REQUESTS = env("BENCH_CURRENCY_REQUESTS", 1000);
// Steady state, not the connection storm: events are measured once the opening burst has been
// absorbed (watchers in the field connect over minutes), for the checkout and the floor alike.
const SETTLE_MS = env("BENCH_SETTLE_MS", 3000);
const SKIP = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
const jsonAt = process.argv.indexOf("--json");
const JSON_FILE = jsonAt >= 0 ? process.argv[jsonAt + 1] : undefined;

/**
 * The worker bundle's budget: 128 KB of gzip. Below that, bytes do not decide a cold start, and
 * code that is easy to read beats code that is small: measured, not shaved.
 */
const WORKER_BUNDLE_BUDGET = 128 * 1024;

function sizes(): void {
  execFileSync("node", ["scripts/build-widget.ts"], { stdio: "ignore" });
  const js = readFileSync("dist/public/widget.js");
  const gzip = gzipSync(js, { level: 9 }).length;
  row("widget.js (JS + CSS inlined), gzip", kb(gzip));
  // Replaced by what Chromium actually fetched before the picker, when that stage runs.
  keep("widget_initial_gzip_bytes", gzip);
  const out = mkdtempSync(join(tmpdir(), "cc-bundle-"));
  try {
    execFileSync(
      "node",
      ["node_modules/wrangler/bin/wrangler.js", "deploy", "--dry-run", "--outdir", out],
      { stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    // What `wrangler deploy` uploads: wrangler.toml's [build] output (`dist/worker/index.js`,
    // built by wrangler's own run of scripts/build-worker.ts), copied to the outdir as is.
    const bundle = readdirSync(out)
      .filter((f) => f.endsWith(".js"))
      .reduce((sum, f) => sum + gzipSync(readFileSync(join(out, f)), { level: 9 }).length, 0);
    keep("worker_bundle_gzip_bytes", bundle);
    row(
      "worker bundle (as uploaded), gzip",
      `${kb(bundle)} (${bundle} B)`,
      `budget ≤ 128 KB (${WORKER_BUNDLE_BUDGET} B) ${bundle <= WORKER_BUNDLE_BUDGET ? "ok" : "OVER"}`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function timed(fn: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return performance.now() - t0;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** `BENCH_PAST_ROUTER=1` (the load stage reads the switch itself). */
const PAST_ROUTER = process.env.BENCH_PAST_ROUTER === "1";

/** Opens a checkout through the worker (a distinct client address keeps it under the rate limit). */
async function openCheckout(
  workerUrl: string,
  sub: string,
  client: number,
  headers: Record<string, string> = {},
) {
  const token = await mintCheckoutToken(
    { sub, amount: "25.00", currency: "USD" },
    DEMO_MERCHANT_SECRETS.checkoutSigningSecret,
  );
  return fetch(
    `${workerUrl}/v1/checkouts`,
    json({ token }, { ...headers, "cf-connecting-ip": clientIp(client) }),
  );
}

/** The address of bench shopper `client` (each its own client: `worker/edge/http/client-key.ts`). */
const clientIp = (client: number) =>
  `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;

/**
 * Opens a checkout and locks USDT on Tron on it: ready for payment webhooks. A 503
 * `service_busy` (the service did not answer in time) is retried as a widget would, at most
 * 5 times; the row `setup retries` says how often.
 */
async function openLocked(workerUrl: string, sub: string, client: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openLockedOnce(workerUrl, sub, client);
    } catch (error) {
      if (attempt >= 5 || !String(error).includes("HTTP 503")) throw error;
      setupRetries += 1;
      await sleep(500 * attempt);
    }
  }
}
let setupRetries = 0;

async function openLockedOnce(workerUrl: string, sub: string, client: number) {
  const created = await openCheckout(workerUrl, sub, client);
  if (!created.ok) throw new Error(`open: HTTP ${created.status} ${await created.text()}`);
  const { data } = (await created.json()) as { data: { id: string; attempt: { orderId: string } } };
  const locked = await fetch(
    `${workerUrl}/v1/checkouts/${data.id}/currency`,
    // From the shopper who opened it: one address locking 1,000 checkouts would be refused by
    // the per-client lock limit (`worker/edge/http/limits.ts`).
    json({ cryptoCurrencyCode: "USDT_TRC20" }, { "cf-connecting-ip": clientIp(client) }),
  );
  if (!locked.ok) throw new Error(`lock: HTTP ${locked.status} ${await locked.text()}`);
  await locked.arrayBuffer();
  return { id: data.id, orderId: data.attempt.orderId };
}

/**
 * `BENCH_PAST_ROUTER=1`: beside each create through `wrangler dev`'s proxy (the stage's keys),
 * one on the runtime's own socket through the assets router and one past it (the header only
 * works there: the proxy is a Miniflare of its own, whose entry worker would take it and find
 * no worker of that name), alternating in the same loop.
 */
async function directCreates(workerPort: number, floorPort: number) {
  const direct = await runtimeUrl(workerPort);
  // The floor's runtime socket too: its new-object write without its proxy, the same hop less.
  const floorDirect = await floorRuntimeUrl(floorPort);
  const through: number[] = [];
  const pastList: number[] = [];
  const floorNew: number[] = [];
  return {
    async add(i: number) {
      const one = (past: boolean) =>
        timed(() =>
          openCheckout(
            direct,
            `bench-${run}-r${past ? "p" : "t"}-${i}`,
            (past ? 30_000 : 20_000) + i,
            past ? pastRouterHeaders() : {},
          ),
        );
      // Which goes first alternates, so neither always follows the proxied create.
      for (const past of i % 2 ? [true, false] : [false, true]) {
        (past ? pastList : through).push(await one(past));
      }
      floorNew.push(
        await timed(() => fetch(`${floorDirect}/write/newd-${run}-${i}`, { method: "POST" })),
      );
    },
    report(sandboxP50: number) {
      const [t, p] = [
        pct(sorted(through), 50) - sandboxP50,
        pct(sorted(pastList), 50) - sandboxP50,
      ];
      const floorNewWrite = pct(sorted(floorNew), 50);
      row(
        "checkout create on the runtime's socket, added p50: through / past the assets router",
        `${ms(t)} / ${ms(p)}`,
        `beside a new DO write there (${ms(floorNewWrite)}): ${(t / floorNewWrite).toFixed(2)}× / ${(p / floorNewWrite).toFixed(2)}×`,
      );
      keep("floor_new_do_write_direct_p50_ms", floorNewWrite);
      keep("checkout_create_direct_added_p50_ms", t);
      keep("checkout_create_direct_past_router_added_p50_ms", p);
    },
  };
}

async function checkoutLatency(
  sandboxUrl: string,
  workerUrl: string,
  floorUrl: string,
  workerPort: number,
  floorPort: number,
) {
  const direct: number[] = [];
  const proxied: number[] = [];
  const floor: number[] = [];
  // Every checkout is a new Durable Object; the floor's write goes to one of ten warm ones.
  // Beside it, the same write to a new object each time: what the runtime itself spends on
  // creating one (its SQLite database included).
  const fresh: number[] = [];
  // The create's shape with nothing of ours: a new object writes, calls the sandbox's cheapest
  // route once, writes again; beside it, that route asked directly (what the call itself costs).
  const shaped: number[] = [];
  const cheapest: number[] = [];
  const healthUrl = `${sandboxUrl}/sandbox/health`;
  const viaRuntime = PAST_ROUTER ? await directCreates(workerPort, floorPort) : null;
  for (let i = 0; i < CREATES; i++) {
    direct.push(
      await timed(() =>
        fetch(
          `${sandboxUrl}/invoice`,
          json(
            {
              accountId: SANDBOX_CREDENTIALS.accountId,
              orderId: `bench-${run}-${i}`,
              fiatCurrencyCode: "USD",
              amount: 25,
            },
            { "x-tenant-api-key": SANDBOX_CREDENTIALS.apiKey },
          ),
        ),
      ),
    );
    proxied.push(await timed(() => openCheckout(workerUrl, `bench-${run}-${i}`, i)));
    await viaRuntime?.add(i);
    floor.push(await timed(() => fetch(`${floorUrl}/write/w${i % 10}`, { method: "POST" })));
    fresh.push(await timed(() => fetch(`${floorUrl}/write/new-${run}-${i}`, { method: "POST" })));
    cheapest.push(await timed(() => fetch(healthUrl)));
    shaped.push(
      await timed(() =>
        fetch(
          `${floorUrl}/write-fetch-write/wfw-${run}-${i}?url=${encodeURIComponent(healthUrl)}`,
          { method: "POST" },
        ),
      ),
    );
  }
  const [d, p, f, n] = [sorted(direct), sorted(proxied), sorted(floor), sorted(fresh)];
  const [s, h] = [sorted(shaped), sorted(cheapest)];
  row(
    `checkout create, sandbox directly / via worker, p50 (n=${CREATES})`,
    `${ms(pct(d, 50))} / ${ms(pct(p, 50))}`,
  );
  const added = pct(p, 50) - pct(d, 50);
  ratioRow("checkout create, worker's added latency, p50", added, pct(f, 50), 1.5);
  ratioRow("  same, beside one write to a new DO each time", added, pct(n, 50), 1.5);
  keep("checkout_create_added_p50_ms", added);
  viaRuntime?.report(pct(d, 50));
  // The create's structural floor: its added part (minus the call, as the create's is) against
  // the same new-object write. Above 1.5× means the target is below the work's shape itself.
  const shapeAdded = pct(s, 50) - pct(h, 50);
  row(
    "floor: new DO write → fetch sandbox → write / the fetch alone, p50",
    `${ms(pct(s, 50))} / ${ms(pct(h, 50))}`,
  );
  ratioRow("  floor's added part, beside one write to a new DO", shapeAdded, pct(n, 50), 1.5);
  ratioRow("  create's added latency, beside that floor's added part", added, shapeAdded, 1.5);
  // The tail a shopper meets: a create asked in a budget window's last 200 ms once waited for
  // the next window (`worker/core/budget/window.ts`).
  row(
    "checkout create via worker, p90 / p99 / slowest",
    `${ms(pct(p, 90))} / ${ms(pct(p, 99))} / ${ms(p[p.length - 1] ?? Number.NaN)}`,
  );
  keep("checkout_create_p90_ms", pct(p, 90));
  keep("checkout_create_p99_ms", pct(p, 99));
  keep("floor_do_write_p50_ms", pct(f, 50));
  keep("floor_new_do_write_p50_ms", pct(n, 50));
  keep("floor_new_do_write_fetch_write_p50_ms", pct(s, 50));
  keep("floor_new_do_write_fetch_write_added_p50_ms", shapeAdded);
  keep("sandbox_health_direct_p50_ms", pct(h, 50));
}

async function concurrentWall(url: string, n: number): Promise<{ wall: number; ok: boolean }> {
  const t0 = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: n }, () => fetch(url).then((r) => r.arrayBuffer().then(() => r.status))),
  );
  return { wall: performance.now() - t0, ok: statuses.every((s) => s === 200) };
}

async function upstreamCount(sandboxUrl: string, path: string): Promise<number> {
  const res = await fetch(`${sandboxUrl}/sandbox/requests?path=${encodeURIComponent(path)}`);
  return ((await res.json()) as { data: unknown[] }).data.length;
}

async function currencyLoad(sandboxUrl: string, workerUrl: string, floorUrl: string) {
  const before = await upstreamCount(sandboxUrl, "/currencies");
  // Three rounds each, alternating; the median wall of each (one round is noisy).
  const ours: number[] = [];
  const floor: number[] = [];
  let allOk = true;
  for (let r = 0; r < 3; r++) {
    const a = await concurrentWall(`${workerUrl}/v1/currencies`, CURRENCY_REQUESTS);
    const b = await concurrentWall(`${floorUrl}/json`, CURRENCY_REQUESTS);
    ours.push(a.wall);
    floor.push(b.wall);
    allOk &&= a.ok && b.ok;
  }
  const after = await upstreamCount(sandboxUrl, "/currencies");
  row(
    `GET /v1/currencies × ${CURRENCY_REQUESTS} concurrent × 3: upstream calls / all 200`,
    `${after - before} / ${allOk}`,
    "budget ≤ 1 per cache period",
  );
  const [o, f] = [pct(sorted(ours), 50), pct(sorted(floor), 50)];
  ratioRow(`GET /v1/currencies × ${CURRENCY_REQUESTS} concurrent, wall (median of 3)`, o, f, 1.3);
  keep("currencies_1000_wall_ms", o);
  keep("floor_json_1000_wall_ms", f);
}

/** p99 of arrival − sent over the watchers' times of one event. */
const p99Since = (times: number[], sent: number) => pct(sorted(times.map((t) => t - sent)), 99);

async function waitFor(collect: () => Promise<number[]>, count: number): Promise<number[]> {
  const deadline = Date.now() + 15_000;
  let times: number[] = [];
  while (Date.now() < deadline) {
    await sleep(250);
    times = await collect();
    if (times.length >= count) break;
  }
  return times;
}

async function checkoutFanOut(sandboxUrl: string, workerUrl: string): Promise<number[]> {
  const { id, orderId } = await openLocked(workerUrl, `bench-sse-${run}`, 65_000);
  const watchers = await openWatchers(
    Array(WATCHERS).fill(`${workerUrl}/v1/checkouts/${id}/events`),
  );
  row("fan-out: checkout watchers connected", `${watchers.opened} / ${WATCHERS}`);
  await sleep(SETTLE_MS);
  const p99s: number[] = [];
  // One webhook per stage: the worker refetches the invoice on each webhook, so two moves sent
  // back to back would collapse into one event (by design).
  for (const [n, status] of ["processing", "paid"].entries()) {
    const simulated = await fetch(
      `${sandboxUrl}/sandbox/invoices/${orderId}/simulate`,
      json({ action: status, processingFirst: false }),
    );
    if (!simulated.ok) row(`simulate ${status}`, `HTTP ${simulated.status}`);
    await simulated.arrayBuffer();
    const times = await waitFor(() => watchers.times(status), watchers.opened);
    // The sandbox records a delivery attempt once the worker has answered it: wait for that.
    type Log = { data: { status: string; attempts: { at: string }[] }[] };
    let sent: string | undefined;
    for (let i = 0; i < 100 && !sent; i++) {
      const log = (await (
        await fetch(`${sandboxUrl}/sandbox/webhooks?orderId=${orderId}`)
      ).json()) as Log;
      sent = log.data.find((d) => d.status === status)?.attempts[0]?.at;
      if (!sent) await sleep(100);
    }
    const p99 = sent ? p99Since(times, Date.parse(sent)) : Number.NaN;
    p99s.push(p99);
    row(
      `fan-out: webhook ${status} → ${watchers.opened} watchers, p99 (${n === 0 ? "first after connecting" : "later"})`,
      ms(p99),
      `lost ${watchers.opened - times.length}`,
    );
  }
  await watchers.close();
  return p99s;
}

async function floorFanOut(floorUrl: string): Promise<number[]> {
  const name = `fan-${run}`;
  const watchers = await openWatchers(Array(WATCHERS).fill(`${floorUrl}/sse/${name}`));
  row("fan-out: floor watchers connected", `${watchers.opened} / ${WATCHERS}`);
  await sleep(SETTLE_MS);
  const p99s: number[] = [];
  for (const [n, status] of ["first", "later"].entries()) {
    const sent = Date.now();
    await fetch(`${floorUrl}/fanout/${name}?status=${status}`, { method: "POST" }).then((r) =>
      r.arrayBuffer(),
    );
    const times = await waitFor(() => watchers.times(status), watchers.opened);
    p99s.push(p99Since(times, sent));
    row(
      `fan-out: floor frame → ${watchers.opened} streams, p99 (${n === 0 ? "first" : "later"})`,
      ms(p99s.at(-1)!),
      `lost ${watchers.opened - times.length}`,
    );
  }
  await watchers.close();
  return p99s;
}

const run = Date.now().toString(36);
console.log("crypto-checkout bench — figures beside the runtime's floor, not assertions\n");
// Local Durable Object storage (SQLite files under `--persist-to`) on tmpfs by default: on a
// disk, workerd's commits wait for it on the runtime's one thread, and the figures measure the
// machine's disk instead of the worker (a deployed object's storage is not this disk). Both
// stacks, ours and the floor, use the same place.
const STATE_DIR = process.env.BENCH_STATE_DIR ?? (existsSync("/dev/shm") ? "/dev/shm" : tmpdir());
process.env.TMPDIR = STATE_DIR;
// `wrangler dev` streams a trace of every invocation, RPC and storage call to a local
// observability collector in the same runtime (miniflare's `X_LOCAL_OBSERVABILITY`, on by
// default): 44 % of the runtime's CPU at 30 webhooks/s (perf, 300 watched checkouts: 316 →
// 176 ms/s without it). A deployed worker has no such collector, so the bench turns it off
// for every stack it starts (the floor's too).
process.env.X_LOCAL_OBSERVABILITY ??= "false";
row("local Durable Object storage under", STATE_DIR);
if (!SKIP.has("sizes")) sizes();
const [demo, floor] = await Promise.all([
  startDemo({
    ports: { sandbox: 0, worker: 0, shop: 0 },
    quiet: true,
    buildWidget: false,
    workerVars: { UPSTREAM_MAX_RPS: "1000" },
  }),
  startFloor(),
]);
// Ctrl-C or a kill stops the stacks too (they run in their own process groups).
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void Promise.all([demo.stop(), floor.stop()]).then(() => process.exit(130));
  });
}
try {
  const { sandboxUrl, workerUrl, shopUrl } = demo.urls;
  if (!SKIP.has("create"))
    await checkoutLatency(sandboxUrl, workerUrl, floor.url, demo.ports.worker, floor.port);
  if (!SKIP.has("x402")) {
    await x402Pay({
      sandboxUrl,
      workerUrl,
      apiKey: SANDBOX_CREDENTIALS.apiKey,
      rounds: env("BENCH_X402_ROUNDS", 50),
      open: async (i) => {
        const res = await openCheckout(workerUrl, `bench-${run}-x402-${i}`, 50_000 + i);
        if (!res.ok) throw new Error(`open: HTTP ${res.status}`);
        return ((await res.json()) as { data: { id: string } }).data.id;
      },
    });
  }
  if (!SKIP.has("currencies")) await currencyLoad(sandboxUrl, workerUrl, floor.url);
  if (!SKIP.has("fanout")) {
    const ours = await checkoutFanOut(sandboxUrl, workerUrl);
    const base = await floorFanOut(floor.url);
    // Each of our events against the floor's worst (the JSON keys compare worst with worst),
    // and the first against the floor's first: the runtime's own first write after
    // connecting is slower too.
    const floorP99 = Math.max(...base);
    ratioRow("fan-out p99, first event after connecting", ours[0]!, floorP99, 1.2);
    ratioRow("fan-out p99, later event", ours[1]!, floorP99, 1.2);
    ratioRow("fan-out p99, first event vs the floor's first frame", ours[0]!, base[0]!, 1.2);
    keep("fanout_1000_p99_ms", Math.max(...ours));
    keep("floor_fanout_1000_p99_ms", floorP99);
  }
  if (!SKIP.has("paint")) {
    const paint = await firstPaint(shopUrl, workerUrl).catch((error: Error) => {
      row("widget first paint", `failed: ${error.message.split("\n")[0]}`);
      return undefined;
    });
    if (paint) {
      row("widget first paint (4× CPU, slow 4G): time to the currency picker", ms(paint.pickerMs));
      row(
        "  widget scripts before the picker, gzip",
        `${kb(paint.gzipBytes)} (${paint.gzipBytes} B)`,
        `${paint.scripts.join(" + ")}; target ≤ 12 KB`,
      );
      keep("widget_initial_gzip_bytes", paint.gzipBytes);
      keep("widget_time_to_picker_ms", paint.pickerMs);
    } else if (paint === null)
      row("widget first paint", "skipped: no Chromium at /usr/bin/chromium");
  }
  if (!SKIP.has("orders")) {
    await ordersListBench(env("BENCH_ORDERS", 100_000), env("BENCH_ORDERS_REQUESTS", 300)).catch(
      (error: Error) => row("orders", `failed: ${error.message.split("\n")[0]}`),
    );
  }
  if (!SKIP.has("aborts")) {
    await abortRounds({
      workerUrl,
      workerPort: demo.ports.worker,
      open: (i, baseUrl) => openLocked(baseUrl, `abort-${run}-${i}`, 200_000 + i),
      checkouts: env("BENCH_ABORT_CHECKOUTS", 10),
      streams: env("BENCH_ABORT_STREAMS", 500),
      rounds: env("BENCH_ABORT_ROUNDS", 30),
      floor: SKIP.has("aborts-floor") ? undefined : { port: floor.port },
    }).catch((error: Error) => row("aborts", `failed: ${error.message.split("\n")[0]}`));
  }
  // Last: under wrangler dev the load can exhaust workerd's file descriptors (see README).
  if (!SKIP.has("load")) {
    await realisticLoad({
      sandboxUrl,
      workerUrl,
      workerPort: demo.ports.worker,
      open: (i, baseUrl) => openLocked(baseUrl, `load-${run}-${i}`, 100_000 + i),
      count: env("BENCH_LOAD_CHECKOUTS", 1000),
      rates: (process.env.BENCH_LOAD_RATE ?? "30,100").split(",").map(Number),
      seconds: env("BENCH_LOAD_SECONDS", 30),
      rounds: env("BENCH_LOAD_ROUNDS", 10),
    }).catch((error: Error) => row("load", `failed: ${error.message.split("\n")[0]}`));
    row("load: setup opens retried after a 503", String(setupRetries));
    await floorWatchers({
      port: floor.port,
      count: env("BENCH_LOAD_CHECKOUTS", 1000),
      run,
      rounds: env("BENCH_LOAD_ROUNDS", 10),
    }).catch((error: Error) => row("floor watchers", `failed: ${error.message.split("\n")[0]}`));
  }
  if (!SKIP.has("floor-webhooks")) {
    await floorWebhooks({
      port: floor.port,
      count: env("BENCH_LOAD_CHECKOUTS", 1000),
      rate: Math.max(...(process.env.BENCH_LOAD_RATE ?? "30,100").split(",").map(Number)),
      seconds: env("BENCH_LOAD_SECONDS", 30),
      run,
    }).catch((error: Error) => row("floor webhooks", `failed: ${error.message.split("\n")[0]}`));
  }
  if (!SKIP.has("phases")) {
    await watchedPhases({
      workerPort: demo.ports.worker,
      count: env("BENCH_PHASE_CHECKOUTS", 1000),
      restMs: env("BENCH_PHASE_REST_MS", 20_000),
      open: (i, baseUrl) => openLocked(baseUrl, `phase-${run}-${i}`, 300_000 + i),
    }).catch((error: Error) => row("phases", `failed: ${error.message.split("\n")[0]}`));
  }
} finally {
  await Promise.all([demo.stop(), floor.stop()]);
}
// Memory per 1,000 watchers, ours and the floor, each in a runtime started for it (the load
// stage's figures depend on what ran before them in their runtimes).
if (!SKIP.has("fresh")) {
  await freshWatchers({
    startOurs: () =>
      startDemo({
        ports: { sandbox: 0, worker: 0, shop: 0 },
        quiet: true,
        buildWidget: false,
        workerVars: { UPSTREAM_MAX_RPS: "1000" },
      }),
    startFloor: () => startFloor(),
    open: (i, baseUrl) => openLocked(baseUrl, `fresh-${run}-${i}`, 400_000 + i),
    count: env("BENCH_LOAD_CHECKOUTS", 1000),
    run: `${run}-fresh`,
  });
}
if (!SKIP.has("scale")) {
  await scalePasses({
    start: (vars) =>
      startDemo({
        ports: { sandbox: 0, worker: 0, shop: 0 },
        quiet: true,
        buildWidget: false,
        ...vars,
      }),
    open: openCheckout,
    watched: env("BENCH_SCALE_WATCHED", 1000),
    open10k: env("BENCH_SCALE_OPEN", 10_000),
    seconds: env("BENCH_SCALE_SECONDS", 30),
    creates: 100,
    createSeconds: 10,
    run,
  });
}
if (!SKIP.has("flood")) {
  await lockFlood({
    start: () =>
      startDemo({ ports: { sandbox: 0, worker: 0, shop: 0 }, quiet: true, buildWidget: false }),
    clients: env("BENCH_FLOOD_CLIENTS", 4),
    checkouts: env("BENCH_FLOOD_CHECKOUTS", 30),
    seconds: env("BENCH_FLOOD_SECONDS", 60),
    baselineSeconds: env("BENCH_FLOOD_BASELINE_SECONDS", 20),
    gapMs: env("BENCH_FLOOD_GAP_MS", 6_000),
    victimGapMs: env("BENCH_FLOOD_VICTIM_GAP_MS", 500),
    doctorGapMs: env("BENCH_FLOOD_DOCTOR_GAP_MS", 2_000),
    run,
  }).catch((error: Error) => row("lock flood", `failed: ${error.message.split("\n")[0]}`));
}
if (JSON_FILE) {
  writeFileSync(JSON_FILE, figuresJson());
  console.log(`\nfigures written to ${JSON_FILE}`);
}
process.exit(0);
