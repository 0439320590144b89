/**
 * The sandbox's x402 facilitator, settle side: a settlement is `submitted` with its transaction
 * at once, `confirmed` a confirm delay later with the signed webhook `x402.payment.settled`
 * (checked with an independent HMAC); armed to fail it ends `failed`, the debit returns and
 * `x402.payment.failed` is sent; one authorization makes one settlement and one debit, however
 * often and however concurrently it is settled; the settlements list filters and pages; faults
 * injected on the x402 paths behave as on any API path; the state is capped.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../demo/sandbox/server.ts";
import { DEMO_X402_WALLET } from "../../demo/sandbox/x402-wallets.ts";
import type { PaymentPayload, PaymentRequirements } from "../../worker/lib/x402/protocol.ts";
import { type SandboxApi, sandboxClient, startReceiver } from "./sandbox-kit.ts";
import {
  facilitatorBody,
  facilitatorFor,
  newPayer,
  payWithX402Client,
  requirements,
  signedPayment,
  until,
} from "./sandbox-x402-kit.ts";

const API_KEY = "sk_x402_settle";
const SIGNING_KEY = "whsec_x402_ключ";
const ACCOUNT = "44444444-4444-4444-8444-444444444444";
const CONFIRM_MS = 150;
let sb: RunningSandbox;
let api: SandboxApi;
let rx: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startSandbox({
    port: 0,
    apiKey: API_KEY,
    accountId: ACCOUNT,
    webhookSigningKey: SIGNING_KEY,
    webhookUrl: rx.url,
    retryDelaysMs: [50, 100],
    x402ConfirmMs: CONFIRM_MS,
  });
  api = sandboxClient(sb.url, API_KEY);
});
afterAll(async () => {
  await sb.close();
  await rx.close();
});
beforeEach(async () => {
  await fetch(`${sb.url}/sandbox/faults`, { method: "DELETE" });
  await admin("PUT", "/sandbox/x402/confirm-delay", { ms: CONFIRM_MS });
  await admin("POST", "/sandbox/x402/fail-next", { times: 0 });
});

const hmac = (body: string) =>
  createHmac("sha256", Buffer.from(SIGNING_KEY, "utf8")).update(body).digest("hex");

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function balance(address: string): Promise<string> {
  return (await admin("GET", `/sandbox/x402/payers/${address}/balance`)).json.data.atomic;
}

async function settle(payload: PaymentPayload, reqs: PaymentRequirements) {
  return api("POST", "/x402/settle", facilitatorBody(payload, reqs));
}

async function byTransaction(tx: string) {
  const list = await api("GET", `/x402/settlements?transaction=${tx}`);
  expect(list.json.data).toHaveLength(1);
  return list.json.data[0];
}

async function settlement(id: string) {
  return (await api("GET", `/x402/settlements/${id}`)).json.data;
}

function webhooksOf(id: string) {
  return rx.received
    .map((r) => ({ ...r, json: JSON.parse(r.body) }))
    .filter((r) => r.json.data?.id === id);
}

describe("x402 settle", () => {
  it("submitted with a transaction at once, confirmed later with a signed x402.payment.settled", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "250000" });
    const payload = await payWithX402Client(payer, reqs);
    const settled = await facilitatorFor(sb.url, API_KEY).settle(payload, reqs as never);
    expect(settled.success).toBe(true);
    const rec = await byTransaction(settled.transaction);
    expect(rec).toEqual({
      id: expect.stringMatching(/^x402_/),
      status: "submitted",
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      amount: "250000",
      payer: payer.address,
      payTo: DEMO_X402_WALLET,
      transaction: settled.transaction,
      errorReason: null,
      createdAt: expect.any(String),
      confirmedAt: null,
    });
    // Debited exactly once, from the 1,000 USDC every payer starts with.
    expect(await balance(payer.address)).toBe("999750000");
    const confirmed = await until(
      () => settlement(rec.id),
      (s) => s.status === "confirmed",
    );
    expect(confirmed).toMatchObject({ status: "confirmed", errorReason: null });
    expect(Date.parse(confirmed.confirmedAt)).toBeGreaterThanOrEqual(Date.parse(rec.createdAt));
    await until(
      async () => webhooksOf(rec.id),
      (w) => w.length > 0,
    );
    const [hook] = webhooksOf(rec.id);
    expect(hook!.headers["x-webhook-signature"]).toBe(hmac(hook!.body));
    expect(hook!.headers["content-type"]).toContain("application/json");
    expect(hook!.json).toEqual({
      event: "x402.payment.settled",
      data: confirmed,
      timestamp: expect.any(String),
    });
    // The sandbox's delivery log has it too, with the same bytes and signature.
    const log = await admin("GET", `/sandbox/webhooks?objectId=${rec.id}`);
    expect(log.json.data).toEqual([
      expect.objectContaining({
        event: "x402.payment.settled",
        status: "confirmed",
        body: hook!.body,
        signature: hmac(hook!.body),
        delivered: true,
      }),
    ]);
  });

  it("a webhook the receiver refuses is retried until delivered (the same signed delivery)", async () => {
    const reqs = requirements();
    rx.failNext(1, 500);
    const settled = await settle(await signedPayment(newPayer(), reqs), reqs);
    const id = (await byTransaction(settled.json.transaction)).id;
    const hooks = await until(
      async () => webhooksOf(id),
      (w) => w.some((h) => h.status === 200),
    );
    expect(hooks.map((h) => h.status)).toEqual([500, 200]);
    expect(hooks[0]!.body).toBe(hooks[1]!.body);
    expect(hooks[1]!.headers["x-webhook-signature"]).toBe(hmac(hooks[1]!.body));
  });

  it("armed to fail: failed with errorReason, the debit given back, x402.payment.failed sent", async () => {
    const armed = await admin("POST", "/sandbox/x402/fail-next", {});
    expect(armed.json.data.failNext).toEqual({
      remaining: 1,
      reason: "invalid_exact_evm_transaction_failed",
    });
    const payer = newPayer();
    const reqs = requirements({ amount: "1000000" });
    const payload = await signedPayment(payer, reqs);
    const settled = await settle(payload, reqs);
    // The broadcast succeeded: the facilitator cannot know yet that the chain will revert it.
    expect(settled.json).toMatchObject({ success: true });
    const id = (await byTransaction(settled.json.transaction)).id;
    expect(await balance(payer.address)).toBe("999000000");
    const failed = await until(
      () => settlement(id),
      (s) => s.status === "failed",
    );
    expect(failed).toMatchObject({
      status: "failed",
      errorReason: "invalid_exact_evm_transaction_failed",
      confirmedAt: null,
      transaction: settled.json.transaction,
    });
    expect(await balance(payer.address)).toBe("1000000000");
    await until(
      async () => webhooksOf(id),
      (w) => w.length > 0,
    );
    const [hook] = webhooksOf(id);
    expect(hook!.json).toEqual({
      event: "x402.payment.failed",
      data: failed,
      timestamp: expect.any(String),
    });
    expect(hook!.headers["x-webhook-signature"]).toBe(hmac(hook!.body));
    // Disarmed after one: the next settlement confirms.
    const next = await settle(await signedPayment(newPayer(), reqs), reqs);
    const nextId = (await byTransaction(next.json.transaction)).id;
    expect(
      (
        await until(
          () => settlement(nextId),
          (s) => s.status !== "submitted",
        )
      ).status,
    ).toBe("confirmed");
    // A reverted transfer leaves the nonce unused: the same authorization may settle anew.
    expect((await api("POST", "/x402/verify", facilitatorBody(payload, reqs))).json.isValid).toBe(
      true,
    );
  });

  it("a custom failure reason, and a slow confirmation (confirm delay set by the admin helper)", async () => {
    await admin("POST", "/sandbox/x402/fail-next", {
      reason: "invalid_exact_evm_transaction_simulation_failed",
    });
    const slow = await admin("PUT", "/sandbox/x402/confirm-delay", { ms: 600 });
    expect(slow.json.data.confirmMs).toBe(600);
    const reqs = requirements();
    const settled = await settle(await signedPayment(newPayer(), reqs), reqs);
    const id = (await byTransaction(settled.json.transaction)).id;
    await new Promise((r) => setTimeout(r, 300));
    expect((await settlement(id)).status).toBe("submitted");
    const done = await until(
      () => settlement(id),
      (s) => s.status !== "submitted",
    );
    expect(done).toMatchObject({
      status: "failed",
      errorReason: "invalid_exact_evm_transaction_simulation_failed",
    });
    for (const bad of [{ ms: -1 }, { ms: 600_001 }, {}]) {
      expect((await admin("PUT", "/sandbox/x402/confirm-delay", bad)).status).toBe(400);
    }
    expect((await admin("POST", "/sandbox/x402/fail-next", { reason: "Boom!" })).status).toBe(400);
  });
});

describe("x402 settle: one authorization, one settlement", () => {
  it("settled twice: the same success and transaction, one settlement, one debit", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "500000" });
    const payload = await signedPayment(payer, reqs);
    const first = await settle(payload, reqs);
    const second = await settle(payload, reqs);
    expect(first.json.success).toBe(true);
    expect(second.json).toEqual(first.json);
    const mine = await api("GET", `/x402/settlements?payer=${payer.address}`);
    expect(mine.json.total).toBe(1);
    expect(await balance(payer.address)).toBe("999500000");
    // Still the same answer once confirmed.
    await until(
      () => settlement(mine.json.data[0].id),
      (s) => s.status === "confirmed",
    );
    expect((await settle(payload, reqs)).json).toEqual(first.json);
    expect(await balance(payer.address)).toBe("999500000");
  });

  it("settled eight times at once: one settlement, one debit, every answer the same transaction", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "750000" });
    const payload = await signedPayment(payer, reqs);
    const answers = await Promise.all(Array.from({ length: 8 }, () => settle(payload, reqs)));
    const txs = new Set(answers.map((a) => a.json.transaction));
    expect(answers.every((a) => a.json.success === true)).toBe(true);
    expect(txs.size).toBe(1);
    const mine = await api("GET", `/x402/settlements?payer=${payer.address}`);
    expect(mine.json.total).toBe(1);
    expect(await balance(payer.address)).toBe("999250000");
  });

  it("eight settles entering the app in the same tick (in-process): still one settlement, one debit", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "50000" });
    const body = JSON.stringify(facilitatorBody(await signedPayment(payer, reqs), reqs));
    const headers = { "content-type": "application/json", "x-tenant-api-key": API_KEY };
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await sb.sandbox.app.request("/x402/settle", { method: "POST", headers, body });
        return (await res.json()) as { success: boolean; transaction: string };
      }),
    );
    expect(answers.every((a) => a.success)).toBe(true);
    expect(new Set(answers.map((a) => a.transaction)).size).toBe(1);
    expect((await api("GET", `/x402/settlements?payer=${payer.address}`)).json.total).toBe(1);
    expect(await balance(payer.address)).toBe("999950000");
  });

  it("two different authorizations of one payer at once: two settlements, two debits", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "100000" });
    const [a, b] = [await signedPayment(payer, reqs), await signedPayment(payer, reqs)];
    const answers = await Promise.all([settle(a, reqs), settle(b, reqs)]);
    expect(new Set(answers.map((x) => x.json.transaction)).size).toBe(2);
    expect(await balance(payer.address)).toBe("999800000");
  });

  it("concurrent authorizations beyond the balance: exactly those the balance covers settle", async () => {
    const payer = newPayer();
    await admin("POST", `/sandbox/x402/payers/${payer.address}/balance`, { balance: "2.5" });
    const reqs = requirements({ amount: "1000000" });
    const payloads = await Promise.all([1, 2, 3, 4].map(() => signedPayment(payer, reqs)));
    const answers = await Promise.all(payloads.map((p) => settle(p, reqs)));
    const ok = answers.filter((a) => a.json.success);
    expect(ok).toHaveLength(2);
    expect(answers.filter((a) => !a.json.success).map((a) => a.json.errorReason)).toEqual([
      "invalid_exact_evm_insufficient_balance",
      "invalid_exact_evm_insufficient_balance",
    ]);
    expect(await balance(payer.address)).toBe("500000");
  });
});

describe("x402 settlements list and get", () => {
  it("filters by status, payer, payTo, transaction and createdAt; pages newest first", async () => {
    // The three stay `submitted` while the filters are read (a busy machine may take longer
    // than the usual confirm delay to read them all); their confirmation is the next test's.
    await admin("PUT", "/sandbox/x402/confirm-delay", { ms: 600_000 });
    const payer = newPayer();
    const reqs = requirements({ amount: "10000" });
    const txs: string[] = [];
    const start = new Date().toISOString();
    for (let i = 0; i < 3; i++) {
      txs.push((await settle(await signedPayment(payer, reqs), reqs)).json.transaction);
      await new Promise((r) => setTimeout(r, 5));
    }
    const page1 = await api("GET", `/x402/settlements?payer=${payer.address}&limit=2`);
    expect(page1.json).toMatchObject({ total: 3, page: 1, limit: 2, hasMore: true });
    expect(page1.json.data.map((s: { transaction: string }) => s.transaction)).toEqual([
      txs[2],
      txs[1],
    ]);
    const page2 = await api("GET", `/x402/settlements?payer=${payer.address}&limit=2&page=2`);
    expect(page2.json).toMatchObject({ total: 3, page: 2, hasMore: false });
    expect(page2.json.data.map((s: { transaction: string }) => s.transaction)).toEqual([txs[0]]);
    // Addresses match whatever their case.
    const lower = await api("GET", `/x402/settlements?payer=${payer.address.toLowerCase()}`);
    expect(lower.json.total).toBe(3);
    const tx = await api("GET", `/x402/settlements?transaction=${txs[1]}`);
    expect(tx.json.data.map((s: { transaction: string }) => s.transaction)).toEqual([txs[1]]);
    const mid = tx.json.data[0].createdAt;
    const fromMid = await api("GET", `/x402/settlements?payer=${payer.address}&from=${mid}`);
    expect(fromMid.json.total).toBe(2);
    const toMid = await api("GET", `/x402/settlements?payer=${payer.address}&to=${mid}`);
    expect(toMid.json.total).toBe(2);
    const window = await api(
      "GET",
      `/x402/settlements?payer=${payer.address}&from=${mid}&to=${mid}`,
    );
    expect(window.json.data.map((s: { transaction: string }) => s.transaction)).toEqual([txs[1]]);
    const before = await api("GET", `/x402/settlements?payer=${payer.address}&to=${start}`);
    expect(before.json.total).toBe(0);
    const payTo = await api(
      "GET",
      `/x402/settlements?payer=${payer.address}&payTo=0x1111111111111111111111111111111111111111`,
    );
    expect(payTo.json.total).toBe(0);
    const toDemo = await api(
      "GET",
      `/x402/settlements?payer=${payer.address}&payTo=${DEMO_X402_WALLET}`,
    );
    expect(toDemo.json.total).toBe(3);
    expect(
      (await api("GET", `/x402/settlements?payer=${payer.address}&status=submitted`)).json.total,
    ).toBe(3);
    expect(
      (await api("GET", `/x402/settlements?payer=${payer.address}&status=confirmed`)).json.total,
    ).toBe(0);
  });

  it("filters by status as settlements confirm: submitted, then confirmed, never failed", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "10000" });
    for (let i = 0; i < 2; i++) await settle(await signedPayment(payer, reqs), reqs);
    const count = async (status: string) =>
      (await api("GET", `/x402/settlements?payer=${payer.address}&status=${status}`)).json.total;
    await until(
      () => count("confirmed"),
      (n) => n === 2,
    );
    expect(await count("submitted")).toBe(0);
    expect(await count("failed")).toBe(0);
  });

  it("refuses a bad query as the other lists do (400 exceptions.validation.invalidQuery)", async () => {
    for (const q of [
      "status=paid",
      "limit=101",
      "page=0",
      "from=yesterday",
      "to=2025-13-45T00:00:00Z",
      "payer=0x12",
      "payTo=nobody",
      "transaction=0xabc",
    ]) {
      const r = await api("GET", `/x402/settlements?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.code).toBe("exceptions.validation.invalidQuery");
    }
  });

  it("GET /x402/settlements/:id answers {data}; an unknown id is a 404 in the usual error shape", async () => {
    const reqs = requirements();
    const settled = await settle(await signedPayment(newPayer(), reqs), reqs);
    const rec = await byTransaction(settled.json.transaction);
    const one = await api("GET", `/x402/settlements/${rec.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual({ data: rec });
    const missing = await api("GET", "/x402/settlements/x402_00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      code: "exceptions.x402.settlementNotFound",
      message: expect.any(String),
    });
    // The admin truth view lists it too (newest first).
    const all = await admin("GET", "/sandbox/x402/settlements");
    expect(all.json.data[0].id).toBe(rec.id);
  });
});

describe("x402: faults on the facilitator paths", () => {
  async function fault(body: Record<string, unknown>) {
    const r = await admin("POST", "/sandbox/faults", body);
    expect(r.status).toBe(201);
  }

  it("503 on /x402/settle: the client sees the failure, no settlement is made, the retry settles", async () => {
    const payer = newPayer();
    const reqs = requirements();
    const payload = await signedPayment(payer, reqs);
    await fault({ path: "/x402/settle", method: "POST", mode: "status", status: 503, times: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await settle(payload, reqs);
      expect(r.status).toBe(503);
      expect(r.json.code).toBe("exceptions.internal.serverError");
    }
    expect((await api("GET", `/x402/settlements?payer=${payer.address}`)).json.total).toBe(0);
    expect(await balance(payer.address)).toBe("1000000000");
    const facilitator = facilitatorFor(sb.url, API_KEY);
    await fault({ path: "/x402/settle", mode: "status", status: 503 });
    await expect(facilitator.settle(payload as never, reqs as never)).rejects.toThrow(/503/);
    expect((await facilitator.settle(payload as never, reqs as never)).success).toBe(true);
    expect((await api("GET", `/x402/settlements?payer=${payer.address}`)).json.total).toBe(1);
  });

  it("429 with extension.msBeforeNext on /x402/settle, then the call goes through", async () => {
    const reqs = requirements();
    const payload = await signedPayment(newPayer(), reqs);
    await fault({ path: "/x402/settle", mode: "status", status: 429, msBeforeNext: 1500 });
    const limited = await settle(payload, reqs);
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({
      code: "exceptions.rateLimit.exceeded",
      message: expect.any(String),
      extension: { msBeforeNext: 1500 },
    });
    expect((await settle(payload, reqs)).json.success).toBe(true);
  });

  it("faults reach /x402/verify, /x402/supported and /x402/settlements too", async () => {
    const reqs = requirements();
    const payload = await signedPayment(newPayer(), reqs);
    await fault({ path: "/x402/verify", mode: "status", status: 502 });
    await fault({ path: "/x402/supported", mode: "status", status: 429, msBeforeNext: 20 });
    await fault({ path: "/x402/settlements", mode: "status", status: 500 });
    expect((await api("POST", "/x402/verify", facilitatorBody(payload, reqs))).status).toBe(502);
    const supported = await api("GET", "/x402/supported");
    expect(supported.status).toBe(429);
    expect(supported.json.extension).toEqual({ msBeforeNext: 20 });
    expect((await api("GET", "/x402/settlements")).status).toBe(500);
    // Each fault was spent once; the paths answer normally again.
    expect((await api("POST", "/x402/verify", facilitatorBody(payload, reqs))).json.isValid).toBe(
      true,
    );
    expect((await api("GET", "/x402/supported")).status).toBe(200);
    expect((await api("GET", "/x402/settlements")).status).toBe(200);
    // HTTPFacilitatorClient retries getSupported on a 429 by itself.
    await fault({ path: "/x402/supported", mode: "status", status: 429 });
    const got = await facilitatorFor(sb.url, API_KEY).getSupported();
    expect(got.kinds).toHaveLength(1);
  });

  it("an answer lost after the settlement was made (timeout-after-create): the settlement stands; the retry gets it", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "300000" });
    const payload = await signedPayment(payer, reqs);
    await fault({ path: "/x402/settle", mode: "timeout-after-create", delayMs: 2000 });
    const lost = await fetch(`${sb.url}/x402/settle`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-tenant-api-key": API_KEY },
      body: JSON.stringify(facilitatorBody(payload, reqs)),
      signal: AbortSignal.timeout(300),
    }).catch((err: unknown) => err);
    expect(lost).toBeInstanceOf(Error);
    const made = await api("GET", `/x402/settlements?payer=${payer.address}`);
    expect(made.json.total).toBe(1);
    expect(await balance(payer.address)).toBe("999700000");
    const retry = await settle(payload, reqs);
    expect(retry.json).toMatchObject({ success: true, transaction: made.json.data[0].transaction });
    expect(await balance(payer.address)).toBe("999700000");
  });

  it("a dropped answer (drop) likewise leaves the settlement made", async () => {
    const payer = newPayer();
    const reqs = requirements();
    const payload = await signedPayment(payer, reqs);
    await fault({ path: "/x402/settle", mode: "drop" });
    await expect(settle(payload, reqs)).rejects.toThrow();
    expect((await api("GET", `/x402/settlements?payer=${payer.address}`)).json.total).toBe(1);
  });
});

describe("x402: bounded state", () => {
  it("past the cap a new settlement or payer is refused with a clear 503; repeats still answer", async () => {
    const x = sb.sandbox.state.x402;
    const reqs = requirements();
    const kept = await signedPayment(newPayer(), reqs);
    const keptAnswer = await settle(kept, reqs);
    const saved = x.limit;
    x.limit = x.settlements.size;
    try {
      const refused = await settle(await signedPayment(newPayer(), reqs), reqs);
      expect(refused.status).toBe(503);
      expect(refused.json).toEqual({
        code: "exceptions.sandbox.x402Full",
        message: expect.stringContaining(`at most ${x.limit}`),
      });
      expect(x.settlements.size).toBe(x.limit);
      // The repeat of a settlement already kept is not a new one.
      expect((await settle(kept, reqs)).json).toEqual(keptAnswer.json);
      x.limit = x.balances.size;
      const set = await admin("POST", `/sandbox/x402/payers/${newPayer().address}/balance`, {
        balance: "1",
      });
      expect(set.status).toBe(503);
    } finally {
      x.limit = saved;
    }
  });
});
