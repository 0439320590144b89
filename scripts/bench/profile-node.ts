/**
 * @module
 * `node scripts/bench/profile-node.ts [OUT.cpuprofile]`: a CPU profile of the worker's own code
 * on the webhook path (issue 19, item 4), made in Node because workerd's inspector cannot give
 * one under `wrangler dev`: the runtime's inspector serves one session per isolate and
 * wrangler's inspector proxy holds it (a second client is accepted and never answered), and a
 * profile through that proxy samples only idle time.
 *
 * What runs: the worker's Hono app (`worker/edge/app.ts`) and every Durable Object class, in
 * this process (`node-runtime/`: `cloudflare:workers` stand-in, objects over `node:sqlite`,
 * RPC arguments and answers structured-cloned), behind a loopback HTTP server; the sandbox
 * (the payment service) in a child process sends real signed webhooks to it. The script opens
 * PROFILE_CHECKOUTS (200) checkouts locked on USDT_TRC20 with one SSE watcher each
 * (PROFILE_WATCH=0: none), then records a profile (`node:inspector`) while the sandbox sends
 * PROFILE_RATE (50) webhooks a second for PROFILE_SECONDS (20), each a real status change
 * (processing ⇄ suspended). It prints this process's CPU per webhook and the top functions and
 * files by self time, and writes the `.cpuprofile` (Chrome DevTools, speedscope).
 *
 * What it cannot show: workerd's own costs (HTTP, Cap'n Proto RPC between objects, its storage
 * layer and commits, the SSE socket writes), which `npm run bench`'s CPU per webhook includes.
 * The harness's own HTTP server and SSE readers appear as `(harness)` and node internals.
 *
 * Env: PROFILE_CHECKOUTS, PROFILE_WATCH, PROFILE_RATE, PROFILE_SECONDS, PROFILE_INTERVAL_US
 * (sampling interval, 100), PROFILE_TOP (30), PROFILE_PORT (18787; the sandbox takes +1).
 * Bounded: fixed counts, every wait has a deadline; loopback only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Session } from "node:inspector/promises";
import { register } from "node:module";
import { mintCheckoutToken } from "../../packages/server/src/index.ts";
import { DEMO_MERCHANT_SECRETS, SANDBOX_CREDENTIALS, workerDemoVars } from "../dev-vars.ts";
import { type Profile, selfByFile, selfTimes, totalTimes } from "./cpu-profile.ts";
import { Namespace, sqlStats } from "./node-runtime/durable-objects.ts";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CHECKOUTS = num("PROFILE_CHECKOUTS", 200);
const WATCH = num("PROFILE_WATCH", 1) !== 0;
const RATE = num("PROFILE_RATE", 50);
const SECONDS = num("PROFILE_SECONDS", 20);
const INTERVAL_US = num("PROFILE_INTERVAL_US", 100);
const TOP = num("PROFILE_TOP", 30);
const PORT = num("PROFILE_PORT", 18787);
const OUT = process.argv[2] ?? "webhooks-node.cpuprofile";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

register("./node-runtime/hooks.ts", import.meta.url);
// workerd's Cache API, empty: the catalogue then asks its object (as on a cache miss).
Object.assign(globalThis, {
  caches: {
    default: { match: async () => undefined, put: async () => {}, delete: async () => false },
  },
});
const { env: workersEnv } = await import("./node-runtime/cloudflare-workers.ts");

const urls = {
  sandboxUrl: `http://127.0.0.1:${PORT + 1}`,
  workerUrl: `http://127.0.0.1:${PORT}`,
  shopUrl: `http://127.0.0.1:${PORT}`,
};

/** Starts the sandbox and resolves once it answers. */
async function startSandbox(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["demo/sandbox/main.ts"], {
    env: {
      ...process.env,
      SANDBOX_PORT: String(PORT + 1),
      SANDBOX_API_KEY: SANDBOX_CREDENTIALS.apiKey,
      SANDBOX_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
      SANDBOX_WEBHOOK_SIGNING_KEY: SANDBOX_CREDENTIALS.webhookSigningKey,
      SANDBOX_WEBHOOK_URL: `${urls.workerUrl}/webhooks/payment`,
      SANDBOX_CURRENCY_LOCK: "on",
    },
    stdio: "ignore",
  });
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`${urls.sandboxUrl}/sandbox/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await sleep(200);
  }
  child.kill();
  throw new Error("the sandbox did not start");
}

async function main(): Promise<void> {
  const sandbox = await startSandbox();
  const vars = {
    ...workerDemoVars(urls),
    UPSTREAM_MAX_RPS: "1000",
    MERCHANT_WEBHOOK_URL: `${urls.workerUrl}/merchant-inbox`,
  };
  Object.assign(workersEnv, vars);
  // Not a literal: the worker is typed against workerd, not Node (tsconfig.node.json).
  const entry = "../../worker/index.ts";
  const worker = (await import(entry)) as Record<string, { prototype: object }> & {
    default: { fetch: (r: Request, env: unknown, ctx: unknown) => Promise<Response> };
  };
  const bindings = () => workersEnv;
  const namespaces = {
    ORDERS: new Namespace(worker.OrderObject as never, bindings),
    DEPOSITS: new Namespace(worker.DepositObject as never, bindings),
    PAYOUTS: new Namespace(worker.PayoutObject as never, bindings),
    CATALOG: new Namespace(worker.CatalogObject as never, bindings),
    PAYMENT_MODES: new Namespace(worker.PaymentModeObject as never, bindings),
    ACCOUNTS: new Namespace(worker.AccountObject as never, bindings),
    BUDGETS: new Namespace(worker.BudgetObject as never, bindings),
    RECONCILERS: new Namespace(worker.ReconcilerObject as never, bindings),
    STREAM_HUBS: new Namespace(worker.StreamHubObject as never, bindings),
  };
  Object.assign(workersEnv, namespaces, {
    CHECKOUT_RATE_LIMIT: { limit: async () => ({ success: true }) },
  });
  // Hand-overs from the reconciler (list records given to an order), counted per webhook.
  let handed = 0;
  const proto = worker.OrderObject!.prototype as unknown as Record<string, unknown>;
  const admitListed = proto.admitListed as (...a: unknown[]) => Promise<void>;
  proto.admitListed = function (this: unknown, ...a: unknown[]) {
    if (counting) handed += 1;
    return admitListed.apply(this, a);
  };
  let counting = false;
  const app = worker.default;
  const server = createServer((req, res) => void serve(app, req, res));
  await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
  const readers: Promise<void>[] = [];
  let events = 0;
  try {
    const checkouts: { id: string; orderId: string }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < CHECKOUTS) {
          const i = next++;
          checkouts[i] = await openLocked(`prof-${i}`, 300_000 + i);
        }
      }),
    );
    console.log(`opened ${checkouts.length} checkouts`);
    const abort = new AbortController();
    if (WATCH) {
      for (const c of checkouts) {
        readers.push(
          fetch(`${urls.workerUrl}/v1/checkouts/${c.id}/events`, { signal: abort.signal })
            .then(async (r) => {
              const decoder = new TextDecoder();
              for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>)
                events += decoder.decode(chunk).split("event: snapshot").length - 1;
            })
            .catch(() => {}),
        );
      }
    }
    await sleep(3000);
    const eventsBefore = events;

    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: INTERVAL_US });
    await session.post("Profiler.start");
    sqlStats.on = true;
    counting = true;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const total = RATE * SECONDS;
    const sent: Promise<unknown>[] = [];
    for (let j = 0; j < total; j++) {
      const wait = t0 + (j * 1000) / RATE - performance.now();
      if (wait > 1) await sleep(wait);
      const c = checkouts[j % checkouts.length]!;
      const action = Math.floor(j / checkouts.length) % 2 === 0 ? "processing" : "suspend";
      sent.push(
        fetch(`${urls.sandboxUrl}/sandbox/invoices/${c.orderId}/simulate`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ action }),
        }).then((r) => r.arrayBuffer()),
      );
    }
    await Promise.all(sent);
    await sleep(2000);
    const cpu = process.cpuUsage(cpu0);
    sqlStats.on = false;
    counting = false;
    const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
    session.disconnect();
    writeFileSync(OUT, JSON.stringify(profile));
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(
      `${total} webhooks, ${events - eventsBefore} SSE events read; this process's CPU ${cpuMs.toFixed(0)} ms = ${(cpuMs / total).toFixed(2)} ms per webhook (harness and profiler included); profile: ${OUT}`,
    );
    console.log(
      `reconciler hand-overs to orders: ${handed} (${(handed / total).toFixed(2)} per webhook)`,
    );
    const { rows, totalMs } = selfTimes(profile);
    const idle = rows
      .filter(([k]) => /^\((idle|program|garbage collector)\)/.test(k))
      .map(([k, v]) => `${k.split(" ")[0]} ${(v / total).toFixed(3)}`);
    console.log(`sampled ${totalMs.toFixed(0)} ms; per webhook: ${idle.join(", ")}`);
    console.log("\nself time per file (ms per webhook):");
    for (const [k, v] of selfByFile(profile).slice(0, TOP))
      console.log(`${(v / total).toFixed(3).padStart(8)}  ${k}`);
    console.log("\nself time per function (ms per webhook):");
    for (const [k, v] of rows.slice(0, TOP))
      console.log(`${(v / total).toFixed(3).padStart(8)}  ${k}`);
    console.log("\ntotal time per function name (ms per webhook):");
    for (const [k, v] of [...totalTimes(profile)].sort((a, b) => b[1] - a[1]).slice(0, TOP * 2))
      console.log(`${(v / total).toFixed(3).padStart(8)}  ${k}`);
    const statements = [...sqlStats.queries].sort((a, b) => b[1].n - a[1].n);
    const count = statements.reduce((sum, [, s]) => sum + s.n, 0);
    const sqlMs = statements.reduce((sum, [, s]) => sum + s.ms, 0);
    console.log(
      `\nSQL: ${(count / total).toFixed(1)} statements, ${(sqlMs / total).toFixed(3)} ms per webhook; by count:`,
    );
    for (const [q, s] of statements.slice(0, TOP * 2))
      console.log(
        `${(s.n / total).toFixed(2).padStart(6)} × ${(s.ms / s.n).toFixed(3)} ms  ${q.slice(0, 140)}`,
      );
    abort.abort();
  } finally {
    for (const ns of Object.values(namespaces)) ns.stop();
    server.closeAllConnections();
    server.close();
    sandbox.kill();
  }
  await Promise.race([Promise.all(readers), sleep(2000)]);
  process.exit(0);
}

/** Serves one request with the worker's app (bodies buffered; answers streamed, SSE too). */
async function serve(
  app: { fetch: (r: Request, env: unknown, ctx: unknown) => Response | Promise<Response> },
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.url === "/merchant-inbox") {
    req.resume();
    res.writeHead(200).end("{}");
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(`${urls.workerUrl}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
  const ctx = {
    waitUntil: (p: Promise<unknown>) => void p.catch(() => {}),
    passThroughOnException() {},
  };
  try {
    const response = await app.fetch(request, workersEnv, ctx);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      res.on("close", () => void response.body?.cancel().catch(() => {}));
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
      }
    }
    res.end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error));
  }
}

async function openLocked(sub: string, client: number) {
  const token = await mintCheckoutToken(
    { sub, amount: "25.00", currency: "USD" },
    DEMO_MERCHANT_SECRETS.checkoutSigningSecret,
  );
  const ip = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${urls.workerUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const created = await post("/v1/checkouts", { token }, { "cf-connecting-ip": ip });
  if (!created.ok) throw new Error(`open: HTTP ${created.status} ${await created.text()}`);
  const { data } = (await created.json()) as { data: { id: string; attempt: { orderId: string } } };
  const locked = await post(
    `/v1/checkouts/${data.id}/currency`,
    { cryptoCurrencyCode: "USDT_TRC20" },
    { "cf-connecting-ip": ip },
  );
  if (!locked.ok) throw new Error(`lock: HTTP ${locked.status} ${await locked.text()}`);
  await locked.arrayBuffer();
  return { id: data.id, orderId: data.attempt.orderId };
}

await main();
