/**
 * Admin helpers: fault injection (every mode), the request log, the merchant inbox,
 * balances, health/CORS, and the CLI's startup behaviour.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { newInvoice, useSandbox } from "./sandbox-kit.ts";

const API_KEY = "sk_admin_test_secret";
const ACCOUNT = "11111111-1111-4111-8111-111111111111";

const { sb, api } = useSandbox(API_KEY, ACCOUNT);

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}
const fault = (body: Record<string, unknown>) => admin("POST", "/sandbox/faults", body);
/** Creates an invoice with plain fetch, so the test sees the transport fail (no client retry). */
const rawInvoice = (orderId: string, signal?: AbortSignal) =>
  fetch(`${sb.url}/invoice`, {
    method: "POST",
    headers: { "x-tenant-api-key": API_KEY },
    body: JSON.stringify({ accountId: ACCOUNT, fiatCurrencyCode: "USD", amount: 10, orderId }),
    signal,
  });
const getByOrder = (orderId: string) =>
  api("GET", `/invoice?accountId=${ACCOUNT}&orderId=${orderId}`);

describe("faults", () => {
  it("delay waits, then answers normally; the fault is consumed", async () => {
    const f = await fault({ path: "/currencies", mode: "delay", delayMs: 300 });
    expect(f.status).toBe(201);
    expect(f.json.data.id).toEqual(expect.any(String));
    expect((await admin("GET", "/sandbox/faults")).json.data).toHaveLength(1);
    const t0 = performance.now();
    const r = await api("GET", "/currencies");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    expect(r.status).toBe(200);
    expect((await admin("GET", "/sandbox/faults")).json.data).toEqual([]);
  });

  it("status 500 answers without running the handler, `times` times", async () => {
    await fault({ path: "/invoice", method: "POST", mode: "status", status: 500, times: 2 });
    const before = sb.sandbox.state.invoices.size;
    for (const orderId of ["f500-a", "f500-b"]) {
      const r = await newInvoice(api, ACCOUNT, orderId);
      expect([r.status, r.json.code]).toEqual([500, "exceptions.internal.serverError"]);
    }
    expect(sb.sandbox.state.invoices.size).toBe(before);
    expect((await newInvoice(api, ACCOUNT, "f500-c")).status).toBe(201);
  });

  it("matches the method: a GET fault leaves POST alone", async () => {
    await fault({ path: "/invoice", method: "GET", mode: "status", status: 502 });
    expect((await newInvoice(api, ACCOUNT, "method-1")).status).toBe(201);
    const g = await getByOrder("method-1");
    expect(g.status).toBe(502);
    expect((await getByOrder("method-1")).status).toBe(200);
  });

  it("429 carries exceptions.rateLimit.exceeded and extension.msBeforeNext", async () => {
    await fault({ path: "/currencies", mode: "status", status: 429, msBeforeNext: 2500 });
    const r = await api("GET", "/currencies");
    expect(r.status).toBe(429);
    expect(r.json).toEqual({
      code: "exceptions.rateLimit.exceeded",
      message: expect.any(String),
      extension: { msBeforeNext: 2500 },
    });
    expect(r.headers.get("x-request-id")).toBeTruthy();
  });

  it("503 on /deposit can carry exceptions.depositFee.quoteUnavailable", async () => {
    await fault({
      path: "/deposit",
      mode: "status",
      status: 503,
      code: "exceptions.depositFee.quoteUnavailable",
    });
    const body = { accountId: ACCOUNT, cryptoCurrencyCode: "TRX", orderId: "dep-503" };
    const r = await api("POST", "/deposit", body);
    expect([r.status, r.json.code]).toEqual([503, "exceptions.depositFee.quoteUnavailable"]);
    expect((await api("POST", "/deposit", body)).status).toBe(201);
  });

  it("timeout-after-create creates the object but answers too late", async () => {
    await fault({ path: "/invoice", method: "POST", mode: "timeout-after-create", delayMs: 5000 });
    const res = rawInvoice("slow-1", AbortSignal.timeout(300));
    await expect(res).rejects.toThrow();
    const got = await getByOrder("slow-1");
    expect(got.status).toBe(200);
    const retry = await newInvoice(api, ACCOUNT, "slow-1");
    expect(retry.status).toBe(200);
    expect(retry.json.data.id).toBe(got.json.data.id);
  });

  it("a delayed request its client gave up on is in flight until its work is done, then takes effect", async () => {
    const inFlight = async () => (await admin("GET", "/sandbox/in-flight")).json.data.requests;
    expect(await inFlight()).toBe(0);
    await fault({ path: "/invoice", method: "POST", mode: "delay", delayMs: 400 });
    await expect(rawInvoice("late-1", AbortSignal.timeout(50))).rejects.toThrow();
    expect(await inFlight()).toBe(1);
    const scoped = async (scope: string) =>
      (await admin("GET", `/sandbox/in-flight?scope=${scope}`)).json.data.requests;
    expect([await scoped("late"), await scoped("other")]).toEqual([1, 0]);
    expect((await getByOrder("late-1")).status).toBe(404);
    await expect.poll(inFlight, { timeout: 5000, interval: 50 }).toBe(0);
    expect((await getByOrder("late-1")).status).toBe(200);
  });

  it("a request held after its work (timeout-after-create) is no longer in flight", async () => {
    await fault({ path: "/invoice", method: "POST", mode: "timeout-after-create", delayMs: 2000 });
    const res = rawInvoice("held-1", AbortSignal.timeout(1500)).catch(() => null);
    await expect
      .poll(async () => (await getByOrder("held-1")).status, { timeout: 1000, interval: 50 })
      .toBe(200);
    expect((await admin("GET", "/sandbox/in-flight")).json.data.requests).toBe(0);
    await res;
  });

  it("drop creates the object, then cuts the connection: the client's request fails", async () => {
    await fault({ path: "/invoice", method: "POST", mode: "drop" });
    const res = rawInvoice("drop-1");
    await expect(res.then((r) => r.text())).rejects.toThrow();
    const got = await getByOrder("drop-1");
    expect(got.status).toBe(200);
    const retry = await newInvoice(api, ACCOUNT, "drop-1");
    expect([retry.status, retry.json.data.id]).toEqual([200, got.json.data.id]);
    expect((await admin("GET", "/sandbox/faults")).json.data).toHaveLength(0);
  });

  it("malformed truncated: 200 with invalid JSON, and the object exists", async () => {
    await fault({ path: "/invoice", method: "POST", mode: "malformed", variant: "truncated" });
    const r = await newInvoice(api, ACCOUNT, "bad-json-1");
    expect(r.status).toBe(200);
    expect(r.json).toBeUndefined();
    expect(() => JSON.parse(r.text)).toThrow();
    expect((await getByOrder("bad-json-1")).status).toBe(200);
  });

  it("malformed shape: 200 with JSON lacking the data envelope", async () => {
    await fault({ path: "/invoice", method: "POST", mode: "malformed", variant: "shape" });
    const r = await newInvoice(api, ACCOUNT, "bad-shape-1");
    expect(r.status).toBe(200);
    expect(r.json).toBeTypeOf("object");
    expect(r.json).not.toHaveProperty("data");
  });

  it("stale answers a GET with the object as it was at an earlier status, exact numerals kept", async () => {
    const q = await api("POST", "/withdrawal/quote", {
      accountId: ACCOUNT,
      cryptoCurrencyCode: "USDT_TRC20",
      address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      amount: 12.345678,
      orderId: "stale-1",
    });
    const w = await api("POST", "/withdrawal/commit", { quoteId: q.json.data.quoteId });
    const sim = await admin("POST", `/sandbox/withdrawals/${w.json.data.id}/simulate`, {
      action: "completed",
    });
    expect(sim.json.data.status).toBe("completed");
    const get = () => api("GET", `/withdrawal?accountId=${ACCOUNT}&id=${w.json.data.id}`);
    const current = await get();
    expect((await fault({ path: "/withdrawal", mode: "stale" })).status).toBe(400); // no asStatus
    await fault({ path: "/withdrawal", method: "GET", mode: "stale", asStatus: "processing" });
    const stale = await get();
    expect(stale.status).toBe(200);
    const { status: _s, updatedAt: _u, ...same } = current.json.data;
    expect(stale.json.data).toEqual({
      ...same,
      status: "processing",
      updatedAt: expect.any(String),
    });
    expect(stale.json.data).not.toHaveProperty("previousStatus");
    expect(stale.text).toContain('"amount":12.345678,');
    expect(stale.json.data.transactionHash).toBe(current.json.data.transactionHash);
    // Consumed once; then the real object again.
    expect((await get()).json.data.status).toBe("completed");
    // A status the object never had: the real answer passes unchanged.
    await fault({ path: "/withdrawal", method: "GET", mode: "stale", asStatus: "failed" });
    expect((await get()).text).toBe(current.text);
  });

  it("validates fault bodies and clears them", async () => {
    expect((await fault({ path: "/x", mode: "explode" })).status).toBe(400);
    expect((await fault({ mode: "delay" })).status).toBe(400);
    await fault({ path: "/currencies", mode: "status", status: 500, times: 5 });
    expect((await admin("DELETE", "/sandbox/faults")).status).toBe(204);
    expect((await api("GET", "/currencies")).status).toBe(200);
  });
});

describe("request log", () => {
  it("records API calls oldest first with status, authorization and order, never the key or admin calls", async () => {
    await admin("DELETE", "/sandbox/requests");
    const since = new Date().toISOString();
    await api("GET", "/currencies?network=Tron");
    await api("GET", "/currencies", undefined, { "x-tenant-api-key": "wrong" });
    const created = await newInvoice(api, ACCOUNT, "log-1");
    await admin("GET", "/sandbox/balances");
    const all = (await admin("GET", "/sandbox/requests")).json.data;
    expect(
      all.map((e: { method: string; path: string; status: number; authorized: boolean }) => [
        e.method,
        e.path,
        e.status,
        e.authorized,
      ]),
    ).toEqual([
      ["GET", "/currencies", 200, true],
      ["GET", "/currencies", 401, false],
      ["POST", "/invoice", 201, true],
    ]);
    expect(all[0].query).toEqual({ network: "Tron" });
    expect(all[2].requestId).toBe(created.headers.get("x-request-id"));
    // The order each call is about: none for the lists, the create's own orderId.
    expect(all.map((e: { orderId: string | null }) => e.orderId)).toEqual([null, null, "log-1"]);
    expect(JSON.stringify(all)).not.toContain(API_KEY);
    const posts = (await admin("GET", "/sandbox/requests?method=post&path=/invoice")).json.data;
    expect(posts).toHaveLength(1);
    const later = (await admin("GET", `/sandbox/requests?since=${encodeURIComponent(since)}`)).json
      .data;
    expect(later).toHaveLength(3);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await admin("GET", `/sandbox/requests?since=${future}`)).json.data).toEqual([]);
    await admin("DELETE", "/sandbox/requests");
    expect((await admin("GET", "/sandbox/requests")).json.data).toEqual([]);
  });
});

describe("merchant inbox", () => {
  it("records headers and raw body, and fails on demand", async () => {
    await admin("DELETE", "/sandbox/merchant-inbox");
    const send = (body: string) =>
      fetch(`${sb.url}/sandbox/merchant-inbox`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-merchant-signature": "abc" },
        body,
      });
    const ok = await send('{"n":1.10}');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    const b = await admin("POST", "/sandbox/merchant-inbox/behaviour", { status: 500, times: 2 });
    expect(b.status).toBe(200);
    expect((await send('{"n":2}')).status).toBe(500);
    expect((await send('{"n":3}')).status).toBe(500);
    expect((await send('{"n":4}')).status).toBe(200);
    const list = (await admin("GET", "/sandbox/merchant-inbox")).json.data;
    expect(list.map((e: { body: string }) => e.body)).toEqual([
      '{"n":1.10}',
      '{"n":2}',
      '{"n":3}',
      '{"n":4}',
    ]);
    expect(list.map((e: { status: number }) => e.status)).toEqual([200, 500, 500, 200]);
    expect(list[0].headers["x-merchant-signature"]).toBe("abc");
    expect(list[0].at).toEqual(expect.any(String));
    await admin("DELETE", "/sandbox/merchant-inbox");
    expect((await admin("GET", "/sandbox/merchant-inbox")).json.data).toEqual([]);
  });
});

describe("balances, health, CORS", () => {
  it("sets and lists balances exactly", async () => {
    const r = await admin("POST", "/sandbox/balances", {
      cryptoCurrencyCode: "ETH",
      amount: "1.000000000000000001",
    });
    expect(r.status).toBe(200);
    const text = await (await fetch(`${sb.url}/sandbox/balances`)).text();
    expect(text).toContain('{"cryptoCurrencyCode":"ETH","amount":1.000000000000000001}');
    expect(
      (await admin("POST", "/sandbox/balances", { cryptoCurrencyCode: "XYZ", amount: "1" })).status,
    ).toBe(400);
    expect(
      (
        await admin("POST", "/sandbox/balances", {
          cryptoCurrencyCode: "BTC",
          amount: "0.123456789",
        })
      ).status,
    ).toBe(400);
  });

  it("health needs no key and admin routes allow any origin", async () => {
    const res = await fetch(`${sb.url}/sandbox/health`, {
      headers: { origin: "http://localhost:5173" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});

function runCli(env: Record<string, string>, untilLine: boolean) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ["demo/sandbox/main.ts"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (untilLine && out.includes("\n")) child.kill("SIGTERM");
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("CLI", () => {
  it("reports a busy port in one line with exit code 1", async () => {
    const r = await runCli(
      { SANDBOX_PORT: String(sb.port), SANDBOX_API_KEY: "cli-secret-key" },
      false,
    );
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toContain(`port ${sb.port} is already in use`);
    expect(r.err + r.out).not.toContain("cli-secret-key");
  });

  it("prints its URL without secrets and exits cleanly on SIGTERM", async () => {
    const r = await runCli(
      {
        SANDBOX_PORT: "0",
        SANDBOX_API_KEY: "cli-secret-key",
        SANDBOX_WEBHOOK_SIGNING_KEY: "cli-secret-signing",
        SANDBOX_WEBHOOK_URL: "off",
      },
      true,
    );
    expect(r.out).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+ /);
    expect(r.out).toContain("webhooks off");
    expect(r.out + r.err).not.toMatch(/cli-secret/);
    expect(r.code).toBe(0);
  });
});
