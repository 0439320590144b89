/**
 * @module sandbox-kit
 * Node-only helpers for tests that drive a sandbox: a typed JSON client that keeps the raw
 * response text (so tests can assert exact numerals) and a local webhook receiver that records
 * raw bodies and can be told to fail, and `useSandbox`, the one place a test file starts its own
 * sandbox before its tests and closes it after them. Test code, not part of the simulator: it
 * lives here.
 */

import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import Big from "big.js";
import { afterAll, beforeAll } from "vitest";
import { type RunningSandbox, type StartOptions, startSandbox } from "../../demo/sandbox/server.ts";
import type { WebhookRecord } from "../../demo/sandbox/state.ts";

/** A response as tests want it: status, headers, raw text and the parsed JSON (if any). */
export interface RawResult {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary response shapes
  json: any;
}

/**
 * A client for one sandbox; `apiKey` is sent on every call unless `headers` overrides it.
 * @example
 * const api = sandboxClient(sb.url, "sk_test");
 * const r = await api("POST", "/invoice", { accountId, fiatCurrencyCode: "USD", amount: 10 });
 */
export function sandboxClient(baseUrl: string, apiKey: string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RawResult> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", "x-tenant-api-key": apiKey, ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text === "" ? null : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * Starts an HTTP receiver on a free loopback port. `failNext(n, status)` makes the next `n`
 * requests answer `status`; otherwise it answers 200.
 * @example
 * const rx = await startReceiver();
 * rx.failNext(2, 500);
 * await rx.close();
 */
export async function startReceiver() {
  const received: Received[] = [];
  let failures = 0;
  let failStatus = 500;
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const status = failures > 0 ? failStatus : 200;
      if (failures > 0) failures -= 1;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
      res.writeHead(status, { "content-type": "application/json" }).end('{"ok":true}');
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    failNext(n: number, status = 500) {
      failures = n;
      failStatus = status;
    },
    /** Resolves once at least `n` requests have arrived (rejects after `ms`). */
    async waitFor(n: number, ms = 5000): Promise<Received[]> {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length}/${n}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The sandbox account's balance of one currency, exact.
 *
 * @example
 * const before = await balanceOf(sb.url, "USDT_TRC20");
 */
export async function balanceOf(baseUrl: string, code: string): Promise<Big> {
  const r = (await (await fetch(`${baseUrl}/sandbox/balances`)).json()) as {
    data: { cryptoCurrencyCode: string; amount: string | number }[];
  };
  return new Big(r.data.find((b) => b.cryptoCurrencyCode === code)!.amount);
}

/** The client `sandboxClient` returns. */
export type SandboxApi = ReturnType<typeof sandboxClient>;

/**
 * The webhooks the sandbox sent (or tried to send) about one object (invoice, deposit,
 * withdrawal), oldest first, from its admin log.
 * @example
 * const hooks = await webhooksFor(sb.url, invoiceId);
 * JSON.parse(hooks[0]!.body).event; // "invoice.statusChanged"
 */
export async function webhooksFor(baseUrl: string, objectId: string): Promise<WebhookRecord[]> {
  const r = await fetch(`${baseUrl}/sandbox/webhooks?objectId=${objectId}`);
  return ((await r.json()) as { data: WebhookRecord[] }).data;
}

/**
 * Creates a 10 USD invoice with this orderId (no currency locked) through the wire API.
 * @example
 * const r = await newInvoice(api, ACCOUNT, "ord-1");
 * expect(r.status).toBe(201);
 */
export function newInvoice(api: SandboxApi, accountId: string, orderId: string) {
  return api("POST", "/invoice", { accountId, fiatCurrencyCode: "USD", amount: 10, orderId });
}

/**
 * Starts one sandbox for the calling test file (any free port, no webhook receiver unless
 * `options` names one) before its tests, and closes it after them. `sb` and `api` may be held
 * at module level: they reach the running sandbox when called, and throw if called before the
 * file's `beforeAll` has started it.
 * @example
 * const { sb, api } = useSandbox("sk_test", ACCOUNT, { currencyLock: false });
 * it("answers", async () => expect((await api("GET", "/currencies")).status).toBe(200));
 */
export function useSandbox(
  apiKey: string,
  accountId: string,
  options: StartOptions = {},
): { sb: RunningSandbox; api: SandboxApi } {
  let running: RunningSandbox | undefined;
  let client: SandboxApi | undefined;
  const started = () => {
    if (!running) throw new Error("the sandbox starts in beforeAll: use it inside a test");
    return running;
  };
  beforeAll(async () => {
    running = await startSandbox({ port: 0, apiKey, accountId, webhookUrl: null, ...options });
    client = sandboxClient(running.url, apiKey);
  });
  afterAll(() => running?.close());
  const sb: RunningSandbox = {
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
    get sandbox() {
      return started().sandbox;
    },
    close: () => started().close(),
  };
  const api: SandboxApi = (...args) => {
    started();
    return client!(...args);
  };
  return { sb, api };
}
