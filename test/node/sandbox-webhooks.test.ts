/**
 * Webhooks: HMAC-SHA256 over the exact raw body (verified independently with node:crypto),
 * data = the GET object plus previousStatus, retries until 2xx, the delivery log,
 * redelivery of the same bytes, the test-webhook sender, and logging without a URL.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../demo/sandbox/server.ts";
import { sandboxClient, startReceiver } from "./sandbox-kit.ts";

const API_KEY = "sk_webhook_test";
const SIGNING_KEY = "whsec_test_signing_ключ";
const ACCOUNT = "11111111-1111-4111-8111-111111111111";
let sb: RunningSandbox;
let api: ReturnType<typeof sandboxClient>;
let rx: Awaited<ReturnType<typeof startReceiver>>;

const sign = (body: string) =>
  createHmac("sha256", Buffer.from(SIGNING_KEY, "utf8")).update(body).digest("hex");

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startSandbox({
    port: 0,
    apiKey: API_KEY,
    accountId: ACCOUNT,
    webhookSigningKey: SIGNING_KEY,
    webhookUrl: rx.url,
    retryDelaysMs: [50, 100],
  });
  api = sandboxClient(sb.url, API_KEY);
});
afterAll(async () => {
  await sb.close();
  await rx.close();
});

async function log(query: string) {
  return (await (await fetch(`${sb.url}/sandbox/webhooks?${query}`)).json()).data;
}
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}
async function paidInvoice(orderId: string) {
  const inv = await api("POST", "/invoice", {
    accountId: ACCOUNT,
    fiatCurrencyCode: "USD",
    amount: 12,
    orderId,
  });
  await fetch(`${sb.url}/sandbox/invoices/${orderId}/simulate`, {
    method: "POST",
    body: '{"action":"paid"}',
  });
  return inv.json.data.id as string;
}

describe("webhook delivery", () => {
  it("signs the exact raw body; data is the GET object plus previousStatus", async () => {
    rx.received.length = 0;
    const id = await paidInvoice("wh-sign");
    const got = await rx.waitFor(2);
    for (const r of got) {
      expect(r.headers["content-type"]).toContain("application/json");
      expect(r.headers["x-webhook-signature"]).toBe(sign(r.body));
      expect(r.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    }
    const [first, second] = got.map((r) => JSON.parse(r.body));
    expect(first).toMatchObject({
      event: "invoice.statusChanged",
      data: { id, status: "processing", previousStatus: "created" },
    });
    expect(second.data).toMatchObject({ status: "paid", previousStatus: "processing" });
    expect(Date.parse(second.timestamp)).not.toBeNaN();
    const current = await api("GET", `/invoice?accountId=${ACCOUNT}&id=${id}`);
    const { previousStatus, ...rest } = second.data;
    expect(rest).toEqual(current.json.data);
    // Amounts travel as JSON numbers in the signed body too.
    expect(got[1]!.body).toContain('"cryptoAmountExpected":12,');
    const entries = await log(`objectId=${id}`);
    expect(entries.map((e: { body: string }) => e.body)).toEqual(got.map((r) => r.body));
    expect(entries[1]).toMatchObject({
      event: "invoice.statusChanged",
      objectId: id,
      orderId: "wh-sign",
      status: "paid",
      url: rx.url,
      signature: sign(got[1]!.body),
      delivered: true,
      attempts: [{ at: expect.any(String), status: 200 }],
    });
  });

  it("the delivered signature fails verification after a one-byte change or with another key", async () => {
    // Verify the way a receiver must: HMAC of the raw bytes, constant-time compare.
    const verify = (body: Buffer, signatureHex: string, key: string) => {
      const expected = createHmac("sha256", Buffer.from(key, "utf8")).update(body).digest();
      const given = Buffer.from(signatureHex, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    const delivered = rx.received.find((r) => r.body.includes('"orderId":"wh-sign"'));
    if (!delivered) throw new Error("the wh-sign delivery was not received");
    const body = Buffer.from(delivered.body, "utf8");
    const signature = String(delivered.headers["x-webhook-signature"]);
    expect(verify(body, signature, SIGNING_KEY)).toBe(true);
    for (const at of [0, body.indexOf('"status"'), body.length - 1]) {
      const flipped = Buffer.from(body);
      flipped[at] = (flipped[at] ?? 0) ^ 0x01;
      expect(verify(flipped, signature, SIGNING_KEY), `byte ${at}`).toBe(false);
    }
    expect(verify(body, signature, `${SIGNING_KEY}x`)).toBe(false);
    expect(verify(body, signature, SIGNING_KEY.slice(0, -1))).toBe(false);
    // The key is its UTF-8 bytes, not a Latin-1 reading of the string.
    const latin1 = createHmac("sha256", Buffer.from(SIGNING_KEY, "latin1")).update(body).digest();
    expect(Buffer.from(signature, "hex").equals(latin1)).toBe(false);
    const tampered = (signature[0] === "0" ? "1" : "0") + signature.slice(1);
    expect(verify(body, tampered, SIGNING_KEY)).toBe(false);
  });

  it("retries until a 2xx on the configured delays", async () => {
    rx.received.length = 0;
    rx.failNext(2, 503);
    const inv = await api("POST", "/invoice", {
      accountId: ACCOUNT,
      fiatCurrencyCode: "USD",
      amount: 5,
    });
    await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${inv.json.data.id}`);
    const got = await rx.waitFor(3);
    expect(got.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    const [entry] = await until(
      () => log(`objectId=${inv.json.data.id}`),
      (e) => e[0]?.delivered === true,
    );
    expect(entry.attempts.map((a: { status: number }) => a.status)).toEqual([503, 503, 200]);
    expect(entry.delivered).toBe(true);
  });

  it("gives up after the last retry and stays undelivered", async () => {
    rx.received.length = 0;
    rx.failNext(10, 500);
    const inv = await api("POST", "/invoice", {
      accountId: ACCOUNT,
      fiatCurrencyCode: "USD",
      amount: 5,
    });
    await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${inv.json.data.id}`);
    await rx.waitFor(3);
    await new Promise((r) => setTimeout(r, 250));
    expect(rx.received).toHaveLength(3);
    const [entry] = await log(`objectId=${inv.json.data.id}`);
    expect(entry.attempts).toHaveLength(3);
    expect(entry.delivered).toBe(false);
    rx.failNext(0);
  });

  it("sends to the object's own webhookUrl when given", async () => {
    const other = await startReceiver();
    try {
      const inv = await api("POST", "/invoice", {
        accountId: ACCOUNT,
        fiatCurrencyCode: "USD",
        amount: 5,
        webhookUrl: other.url,
      });
      await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${inv.json.data.id}`);
      const [r] = await other.waitFor(1);
      expect(JSON.parse(r!.body).data.id).toBe(inv.json.data.id);
    } finally {
      await other.close();
    }
  });

  it("PUT /sandbox/webhook-url moves the default destination; a bad URL is refused", async () => {
    const other = await startReceiver();
    const put = (url: unknown) =>
      fetch(`${sb.url}/sandbox/webhook-url`, { method: "PUT", body: JSON.stringify({ url }) });
    try {
      const bad = await put("not a url");
      expect(bad.status).toBe(400);
      expect(sb.sandbox.state.options.webhookUrl).toBe(rx.url);
      const moved = await put(other.url);
      expect([moved.status, (await moved.json()).data.url]).toEqual([200, other.url]);
      rx.received.length = 0;
      await paidInvoice("wh-moved");
      const [r] = await other.waitFor(1);
      expect(JSON.parse(r!.body).data.orderId).toBe("wh-moved");
      expect(rx.received).toHaveLength(0);
    } finally {
      await put(rx.url);
      await other.close();
    }
  });

  it('PUT /sandbox/webhook-url with "headers" adds them to every delivery, until the next PUT', async () => {
    const put = (body: object) =>
      fetch(`${sb.url}/sandbox/webhook-url`, { method: "PUT", body: JSON.stringify(body) });
    try {
      const many = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`x-h${i}`, "v"]));
      for (const headers of [
        ["x"],
        { "bad name": "v" },
        { "x-route": 1 },
        many,
        { "x-long": "v".repeat(257) },
        { "x-split": "a\r\nx-injected: 1" },
        // What the sandbox writes itself (in any case) or what frames the request: a 400, not
        // silently dropped or a malformed request every receiver refuses.
        { "X-Webhook-Signature": "forged" },
        { "Content-Type": "text/plain" },
        { "content-length": "0" },
        { "Transfer-Encoding": "chunked" },
        { connection: "upgrade" },
      ]) {
        const bad = await put({ url: rx.url, headers });
        expect(bad.status).toBe(400);
      }
      expect(sb.sandbox.state.webhookHeaders).toEqual({});
      const set = await put({ url: rx.url, headers: { "mf-route-override": "crypto-checkout" } });
      expect((await set.json()).data.headers).toEqual({ "mf-route-override": "crypto-checkout" });
      rx.received.length = 0;
      await paidInvoice("wh-headers");
      const got = await rx.waitFor(2);
      for (const r of got) {
        expect(r.headers["mf-route-override"]).toBe("crypto-checkout");
        // The signature is still the sandbox's own: an extra header cannot replace it.
        expect(r.headers["x-webhook-signature"]).toBe(sign(r.body));
      }
      await put({ url: rx.url });
      rx.received.length = 0;
      await paidInvoice("wh-headers-off");
      const after = await rx.waitFor(2);
      expect(after.map((r) => r.headers["mf-route-override"])).toEqual([undefined, undefined]);
    } finally {
      await put({ url: rx.url });
    }
  });

  it('PUT /sandbox/webhook-url with "all" also moves objects\' own webhookUrl, until the next PUT', async () => {
    const own = await startReceiver();
    const all = await startReceiver();
    const put = (body: object) =>
      fetch(`${sb.url}/sandbox/webhook-url`, { method: "PUT", body: JSON.stringify(body) });
    const cancelled = async () => {
      const inv = await api("POST", "/invoice", {
        accountId: ACCOUNT,
        fiatCurrencyCode: "USD",
        amount: 5,
        webhookUrl: own.url,
      });
      await api("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${inv.json.data.id}`);
      return inv.json.data.id as string;
    };
    try {
      const bad = await put({ url: all.url, all: "yes" });
      expect(bad.status).toBe(400);
      expect(sb.sandbox.state.options.webhookUrl).toBe(rx.url);
      const moved = await put({ url: all.url, all: true });
      expect((await moved.json()).data).toEqual({ url: all.url, all: true, headers: {} });
      const redirected = await cancelled();
      const [r] = await all.waitFor(1);
      expect(JSON.parse(r!.body).data.id).toBe(redirected);
      expect(own.received).toHaveLength(0);
      // A PUT without "all" ends the redirect: the object's own URL applies again.
      await put({ url: rx.url });
      const restored = await cancelled();
      const [back] = await own.waitFor(1);
      expect(JSON.parse(back!.body).data.id).toBe(restored);
      expect(all.received).toHaveLength(1);
    } finally {
      await put({ url: rx.url });
      await own.close();
      await all.close();
    }
  });

  it("redelivers the same bytes and signature", async () => {
    const [entry] = await log("orderId=wh-sign");
    rx.received.length = 0;
    const res = await fetch(`${sb.url}/sandbox/webhooks/${entry.id}/redeliver`, { method: "POST" });
    expect(res.status).toBe(200);
    const [r] = await rx.waitFor(1);
    expect(r!.body).toBe(entry.body);
    expect(r!.headers["x-webhook-signature"]).toBe(entry.signature);
    const after = (await res.json()).data;
    expect(after.attempts).toHaveLength(entry.attempts.length + 1);
    const missing = await fetch(`${sb.url}/sandbox/webhooks/nope/redeliver`, { method: "POST" });
    expect(missing.status).toBe(404);
  });

  it("sends a signed test webhook and returns its delivery record", async () => {
    rx.received.length = 0;
    const res = await fetch(`${sb.url}/sandbox/test-webhook`, {
      method: "POST",
      body: JSON.stringify({ url: rx.url }),
    });
    const rec = (await res.json()).data;
    expect(rec).toMatchObject({ event: "invoice.statusChanged", delivered: true, url: rx.url });
    const [r] = await rx.waitFor(1);
    expect(r!.body).toBe(rec.body);
    expect(r!.headers["x-webhook-signature"]).toBe(sign(r!.body));
    // A whole paid invoice, as real deliveries carry: settled, with every field of one.
    const data = JSON.parse(r!.body).data;
    expect(data).toMatchObject({
      accountId: ACCOUNT,
      orderId: "test-webhook",
      status: "paid",
      previousStatus: "processing",
      fiatCurrencyCode: "USD",
      amount: 10,
      items: [],
      cryptoCurrencyCode: "USDT_TRC20",
      cryptoAmountExpected: 10,
      cryptoAmountReceived: 10,
      address: expect.stringMatching(/^T/),
      txHash: expect.any(String),
      paidAt: expect.any(String),
      paymentPageUrl: `${sb.url}/pay/${data.id}`,
      settlement: expect.objectContaining({ amountPaid: 10, netAmountUsd: expect.any(Number) }),
    });
    expect(data.id).toMatch(/^test-/);
  });
});

describe("close()", () => {
  it("stops pending retries", async () => {
    const failing = await startReceiver();
    failing.failNext(100, 500);
    const short = await startSandbox({
      port: 0,
      apiKey: API_KEY,
      accountId: ACCOUNT,
      webhookUrl: failing.url,
      retryDelaysMs: [300, 300],
    });
    try {
      const q = sandboxClient(short.url, API_KEY);
      const inv = await q("POST", "/invoice", {
        accountId: ACCOUNT,
        fiatCurrencyCode: "USD",
        amount: 5,
      });
      await q("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${inv.json.data.id}`);
      await failing.waitFor(1);
      await short.close();
      await new Promise((r) => setTimeout(r, 800));
      expect(failing.received).toHaveLength(1);
    } finally {
      await short.close();
      await failing.close();
    }
  });
});

describe("without a webhook URL", () => {
  it("logs deliveries with url null and never sends them", async () => {
    const quiet = await startSandbox({
      port: 0,
      apiKey: API_KEY,
      accountId: ACCOUNT,
      webhookUrl: null,
    });
    try {
      const q = sandboxClient(quiet.url, API_KEY);
      const inv = await q("POST", "/invoice", {
        accountId: ACCOUNT,
        fiatCurrencyCode: "USD",
        amount: 5,
      });
      await q("POST", `/invoice/cancel?accountId=${ACCOUNT}&id=${inv.json.data.id}`);
      const entries = (await (await fetch(`${quiet.url}/sandbox/webhooks`)).json()).data;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ url: null, attempts: [], delivered: false });
      expect(entries[0].signature).toMatch(/^[0-9a-f]{64}$/);
      const redeliver = await fetch(`${quiet.url}/sandbox/webhooks/${entries[0].id}/redeliver`, {
        method: "POST",
      });
      expect(redeliver.status).toBe(409);
    } finally {
      await quiet.close();
    }
  });
});
