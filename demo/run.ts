/**
 * @module
 * Starts the whole demo stack: the sandbox (the payment service), the worker (`wrangler dev`)
 * and the storefront with its merchant backend, wired to each other by port. `npm run demo`
 * and the end-to-end tests both start the stack through `startDemo`, so they test what a
 * developer runs.
 *
 * Invariants:
 * - needs no account and no network: the worker talks only to the local sandbox;
 * - a busy port is a clear error naming the port, raised before anything starts;
 * - every process started is stopped by `stop()`, on a failed start, or on abort; the worker's
 *   Durable Object state lives in a temporary directory removed on stop (each run starts clean).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEMO_MERCHANT_SECRETS,
  type DemoEndpoints,
  SANDBOX_CREDENTIALS,
  workerDemoVars,
} from "../scripts/dev-vars.ts";
import { type Child, startChild } from "./run/child.ts";
import { assertPortFree, reservePorts } from "./run/ports.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Ports of the three servers. */
export interface DemoPorts {
  sandbox: number;
  worker: number;
  shop: number;
}

/** The design's fixed dev ports. */
export const DEFAULT_PORTS: DemoPorts = { sandbox: 8788, worker: 8787, shop: 5173 };

/** Options of `startDemo`. */
export interface DemoOptions {
  /** Ports to use; `0` picks a free one (what tests do). Unset ones use `DEFAULT_PORTS`. */
  ports?: Partial<DemoPorts>;
  /** Show only warnings and errors from the children (default `true`). */
  quiet?: boolean;
  /** Build the widget (`scripts/build-widget.ts`) before starting (default `true`). */
  buildWidget?: boolean;
  /** Where prefixed child output goes (default `console.log`). */
  log?: (line: string) => void;
  /** Aborting stops whatever was started and rejects the pending `startDemo`. */
  signal?: AbortSignal;
  /** More origins the worker lets embed the widget (`scripts/demo-origins.ts`). */
  extraOrigins?: readonly string[];
  /**
   * Hosted mode, the real service's path: the sandbox serves the public API only
   * (`SANDBOX_CURRENCY_LOCK=off`), so the worker (`PAYMENT_MODE=auto`) finds no currency lock
   * and shoppers choose on the sandbox's payment page. Default false: in-page.
   */
  hosted?: boolean;
  /**
   * Where the worker sends merchant notifications instead of the demo shop's inbox (a test's
   * own receiver, to verify the raw signed deliveries).
   */
  merchantWebhookUrl?: string;
  /** Worker vars over the demo's (the bench: `UPSTREAM_MAX_RPS`). */
  workerVars?: Readonly<Record<string, string>>;
  /** Sandbox variables over the demo's (the bench: `SANDBOX_RATE_LIMIT`). */
  sandboxVars?: Readonly<Record<string, string>>;
}

/** A running stack. */
export interface DemoStack {
  ports: DemoPorts;
  urls: DemoEndpoints;
  /** Stops every process started (idempotent). */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Checks the fixed ports, reserves the `0` ones plus one for wrangler's inspector; `release`
 * gives the reserved ones back once the stack stopped.
 */
async function resolvePorts(
  requested: Partial<DemoPorts>,
): Promise<{ ports: DemoPorts; inspector: number; release: () => void }> {
  const ports = { ...DEFAULT_PORTS, ...requested };
  const roles = Object.keys(ports) as (keyof DemoPorts)[];
  const reserved = await reservePorts(roles.filter((role) => ports[role] === 0).length + 1);
  const free = [...reserved.ports];
  try {
    for (const role of roles) {
      if (ports[role] === 0) ports[role] = free.pop()!;
      else await assertPortFree(role === "shop" ? "storefront" : role, ports[role]);
    }
  } catch (error) {
    reserved.release();
    throw error;
  }
  return { ports, inspector: free.pop()!, release: reserved.release };
}

/** Polls `url` until `ready(response)` holds; fails fast if the child exits. */
async function waitUntilReady(
  child: Child,
  url: string,
  ready: (response: Response) => boolean,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    if (!child.running()) {
      throw new Error(
        `${child.name} exited (${await child.exited}) before it was ready. Its last output:\n` +
          child.recent().join("\n"),
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
      await response.body?.cancel();
      if (ready(response)) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(250);
  }
  throw new Error(
    `${child.name} did not become ready at ${url} within ${timeoutMs / 1000}s (${last}). Its last output:\n` +
      child.recent().join("\n"),
  );
}

async function runToCompletion(child: Child): Promise<void> {
  const code = await child.exited;
  if (code !== 0) {
    throw new Error(`${child.name} failed (${code}):\n${child.recent().join("\n")}`);
  }
}

/**
 * Starts sandbox, worker and storefront, and resolves once all three answer.
 *
 * @example
 * const demo = await startDemo({ ports: { sandbox: 0, worker: 0, shop: 0 } });
 * console.log(demo.urls.shopUrl);
 * await demo.stop();
 */
export async function startDemo(options: DemoOptions = {}): Promise<DemoStack> {
  const quiet = options.quiet ?? true;
  const log = options.log ?? ((line: string) => console.log(line));
  const { signal } = options;
  const {
    ports,
    inspector: inspectorPort,
    release: releasePorts,
  } = await resolvePorts(options.ports ?? {});
  const urls: DemoEndpoints = {
    sandboxUrl: `http://127.0.0.1:${ports.sandbox}`,
    workerUrl: `http://127.0.0.1:${ports.worker}`,
    shopUrl: `http://127.0.0.1:${ports.shop}`,
  };
  const children: Child[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), "crypto-checkout-demo-"));
  const spawnChild = (name: string, args: string[], env: Record<string, string> = {}) => {
    const child = startChild({ name, args, cwd: ROOT, env, quiet, log });
    children.push(child);
    return child;
  };

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      signal?.removeEventListener("abort", onAbort);
      // Shop first (it calls the worker), then the worker (it calls the sandbox), then the rest.
      for (const child of [...children].reverse()) await child.stop();
      releasePorts();
      try {
        rmSync(stateDir, { recursive: true, force: true, maxRetries: 3 });
      } catch (error) {
        log(`[demo] could not remove ${stateDir}: ${(error as Error).message}`);
      }
    })();
    return stopping;
  };
  const onAbort = () => void stop();
  signal?.addEventListener("abort", onAbort, { once: true });

  try {
    signal?.throwIfAborted();
    if (options.buildWidget ?? true) {
      await runToCompletion(spawnChild("widget", ["scripts/build-widget.ts"]));
    }
    signal?.throwIfAborted();

    const sandbox = spawnChild("sandbox", ["demo/sandbox/main.ts"], {
      SANDBOX_PORT: String(ports.sandbox),
      SANDBOX_API_KEY: SANDBOX_CREDENTIALS.apiKey,
      SANDBOX_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
      SANDBOX_WEBHOOK_SIGNING_KEY: SANDBOX_CREDENTIALS.webhookSigningKey,
      SANDBOX_WEBHOOK_URL: `${urls.workerUrl}/webhooks/payment`,
      SANDBOX_CURRENCY_LOCK: options.hosted ? "off" : "on",
      ...options.sandboxVars,
    });
    // `--var` beats both wrangler.toml and .dev.vars: the stack is wired the same way whatever
    // a developer keeps in .dev.vars (the values are sandbox-only demo strings).
    const workerVars = { ...workerDemoVars(urls, options.extraOrigins), ...options.workerVars };
    if (options.merchantWebhookUrl) workerVars.MERCHANT_WEBHOOK_URL = options.merchantWebhookUrl;
    const vars = Object.entries(workerVars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
    const worker = spawnChild(
      "worker",
      [
        "node_modules/wrangler/bin/wrangler.js",
        "dev",
        "--port",
        String(ports.worker),
        "--ip",
        "127.0.0.1",
        "--inspector-port",
        String(inspectorPort),
        "--persist-to",
        join(stateDir, "wrangler"),
        "--show-interactive-dev-session=false",
        ...vars,
      ],
      // No network: no telemetry, and no download of the `Request.cf` placeholder data.
      { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    );
    const shop = spawnChild("shop", ["demo/merchant/main.ts"], {
      SHOP_PORT: String(ports.shop),
      SHOP_URL: urls.shopUrl,
      WORKER_URL: urls.workerUrl,
      SANDBOX_URL: urls.sandboxUrl,
      CHECKOUT_SIGNING_SECRET: DEMO_MERCHANT_SECRETS.checkoutSigningSecret,
      MERCHANT_API_TOKEN: DEMO_MERCHANT_SECRETS.merchantApiToken,
      MERCHANT_WEBHOOK_SECRET: DEMO_MERCHANT_SECRETS.merchantWebhookSecret,
    });

    const anyAnswer = () => true;
    await Promise.all([
      waitUntilReady(sandbox, `${urls.sandboxUrl}/sandbox/health`, (r) => r.ok, 20_000, signal),
      waitUntilReady(worker, `${urls.workerUrl}/widget.js`, anyAnswer, 90_000, signal),
      waitUntilReady(shop, `${urls.shopUrl}/healthz`, (r) => r.ok, 20_000, signal),
    ]);
    const widget = await fetch(`${urls.workerUrl}/widget.js`);
    await widget.body?.cancel();
    if (!widget.ok) log(`[worker] warning: GET /widget.js answered ${widget.status}`);
    return { ports, urls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
