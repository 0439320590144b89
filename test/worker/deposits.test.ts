/**
 * Top-ups (standalone deposits): open idempotently, validate, survive the service's
 * "deposit fee quote unavailable", apply signed webhooks with exact commission maths, and
 * stream snapshots over SSE.
 */
import { env } from "cloudflare:workers";
import Big from "big.js";
import { describe, expect, it } from "vitest";
import type { CryptoCurrency, DepositSnapshot } from "../../packages/contract/src/http-api.ts";
import { depositNotifications } from "../../worker/deposit/notifications.ts";
import { computeSettlement, settlementAgrees } from "../../worker/deposit/settlement.ts";
import type { DepositRow } from "../../worker/deposit/store.ts";
import type { Settlement } from "../../worker/service/types.ts";
import { clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import {
  balance,
  deliver,
  deliveriesFor,
  fault,
  hmacHex,
  postJson,
  STOREFRONT,
  sandbox,
  token,
  uniqueIp,
  uniqueSub,
  upstreamRequests,
  withoutRecord,
  worker,
} from "./helpers.ts";
import { readFrames } from "./sse-frames.ts";

const signingKey = env.WEBHOOK_SIGNING_KEY as string;

type Body = { data: DepositSnapshot; error?: { code: string; message: string } };
type Currency = CryptoCurrency & { depositNetworkFee: { amount: string } | null };

async function openTopUp(
  sub: string,
  claims: Record<string, string> = {},
  body: Record<string, string> = {},
) {
  const t = await token({ sub, mode: "deposit", customerId: "cust-7", ...claims });
  const res = await postJson(
    "/v1/deposits",
    { token: t, ...body },
    { "cf-connecting-ip": uniqueIp() },
  );
  return { status: res.status, body: (await res.json()) as Body };
}

async function liveCurrency(code: string): Promise<Currency> {
  const res = await worker("/v1/currencies");
  const list = ((await res.json()) as { data: Currency[] }).data;
  return list.find((c) => c.code === code)!;
}

function simulateDeposit(orderId: string, action: string, amount?: string) {
  return sandbox(`/sandbox/deposits/${encodeURIComponent(orderId)}/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(amount ? { action, amount } : { action }),
  });
}

async function depositDeliveries(orderId: string) {
  return (await deliveriesFor(orderId)).filter((d) => d.event === "deposit.statusChanged");
}

clearFaultsAfterEach();

describe("POST /v1/deposits", () => {
  it("a client over the per-client limit gets 429 rate_limited and opens no top-up, whatever its token", async () => {
    const ip = { "cf-connecting-ip": uniqueIp() };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await postJson("/v1/deposits", { token: "not-a-token" }, ip);
      statuses.push(res.status);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    const sub = uniqueSub("dep-limited");
    const t = await token({ sub, mode: "deposit", cryptoCurrencyCode: "USDT_TRC20" });
    const limited = await postJson("/v1/deposits", { token: t }, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(((await limited.json()) as Body).error?.code).toBe("rate_limited");
    const upstream = await sandbox(
      `/deposit?accountId=00000000-0000-4000-8000-000000000001&orderId=cc-${sub}`,
      { headers: { "x-tenant-api-key": "test-api-key-never-shown" } },
    );
    expect(upstream.status).toBe(404);
    // The same top-up from another client opens.
    expect((await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" })).status).toBe(201);
  });

  it("opens a top-up with orderId <prefix>-<sub> and answers 201 with an exact snapshot", async () => {
    const sub = uniqueSub("dep");
    const { status, body } = await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" });
    expect(status).toBe(201);
    const snap = body.data;
    const live = await liveCurrency("USDT_TRC20");
    expect(snap.kind).toBe("deposit");
    expect(snap.id).toMatch(/^d[A-Za-z0-9_-]{22}$/);
    expect(snap.topUpId).toBe(sub);
    expect(snap.cryptoCurrencyCode).toBe("USDT_TRC20");
    expect(snap.network).toBe(live.network);
    expect(snap.decimalPlaces).toBe(live.decimalPlaces);
    expect(snap.address).toMatch(new RegExp(live.addressMask!));
    expect(snap.minDepositAmount).toBe(live.minDepositAmount);
    // Tenant-specific commission from GET /currencies, never a constant; and its percentage.
    expect(snap.depositCommission).toBe(live.depositCommission);
    expect(snap.depositCommissionPercent).toBe(
      new Big(live.depositCommission).times(100).toFixed(),
    );
    expect(snap.depositNetworkFee).toBe(live.depositNetworkFee?.amount ?? null);
    expect(snap.status).toBe("created");
    expect(snap.settlement).toBeNull();
    expect(snap.final).toBe(false);
    // Tron has no payment URI: no link (the widget shows copy and QR of the address).
    expect(snap.walletUri).toBeNull();
    expect(snap.currencyName).toBe(live.name);
    expect(snap.networkName).toBe("TRON");
    const upstream = await sandbox<{
      data: { id: string; address: string };
    }>(`/deposit?accountId=00000000-0000-4000-8000-000000000001&orderId=cc-${sub}`, {
      headers: { "x-tenant-api-key": "test-api-key-never-shown" },
    });
    expect(upstream.status).toBe(200);
    expect(upstream.body.data.address).toBe(snap.address);
    // GET /deposit is the SDK's Deposit (no minimumAmount): the create answer's is the minimum.
    expect(snap.minimumAmount).toBe(live.minDepositAmount);
    expect(snap.id).not.toBe(upstream.body.data.id);
    const again = await worker(`/v1/deposits/${snap.id}`);
    expect(((await again.json()) as Body).data.address).toBe(snap.address);
  });

  it("takes the currency from the body when the token names none; an EVM address gets an EIP-681 link", async () => {
    const { status, body } = await openTopUp(
      uniqueSub("body"),
      {},
      { cryptoCurrencyCode: "USDT_ERC20" },
    );
    expect(status).toBe(201);
    expect(body.data.cryptoCurrencyCode).toBe("USDT_ERC20");
    // Sepolia's chain id with the sandbox's Sepolia token contract, never mainnet USDT.
    expect(body.data.walletUri).toMatch(
      new RegExp(`^ethereum:0x[0-9a-fA-F]{40}@11155111/transfer\\?address=${body.data.address}$`),
    );
    expect(body.data.walletUri).not.toContain("0xdAC17F958D2ee523a2206206994597C13D831ec7");
  });

  it("returns the same top-up (200) for the same sub, with one upstream deposit", async () => {
    const sub = uniqueSub("same");
    const before = (await upstreamRequests("/deposit", "POST")).length;
    const first = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    const second = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.address).toBe(first.body.data.address);
    expect((await upstreamRequests("/deposit", "POST")).length).toBe(before + 1);
  });

  it("makes one upstream deposit for 15 concurrent opens: one 201, fourteen 200", async () => {
    const sub = uniqueSub("conc");
    const t = await token({ sub, mode: "deposit", cryptoCurrencyCode: "BTC" });
    const before = (await upstreamRequests("/deposit", "POST")).length;
    const results = await Promise.all(
      Array.from({ length: 15 }, () =>
        postJson("/v1/deposits", { token: t }, { "cf-connecting-ip": uniqueIp() }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(14);
    const addresses = new Set(
      await Promise.all(results.map(async (r) => ((await r.json()) as Body).data.address)),
    );
    expect(addresses.size).toBe(1);
    expect((await upstreamRequests("/deposit", "POST")).length).toBe(before + 1);
  });

  it("answers 409 checkout_conflict for the same sub with another currency, without an upstream call", async () => {
    const sub = uniqueSub("conf");
    await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" });
    const before = (await upstreamRequests("/deposit", "POST")).length;
    const other = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe("checkout_conflict");
    expect((await upstreamRequests("/deposit", "POST")).length).toBe(before);
  });

  it("refuses bad input with a clear error and creates nothing", async () => {
    const before = (await upstreamRequests("/deposit", "POST")).length;
    const ip = { "cf-connecting-ip": uniqueIp() };
    // An invoice token: 400 validation_failed (it belongs to POST /v1/checkouts).
    const invoice = await postJson(
      "/v1/deposits",
      { token: await token({ sub: uniqueSub("inv") }) },
      ip,
    );
    expect(invoice.status).toBe(400);
    expect(((await invoice.json()) as Body).error?.code).toBe("validation_failed");
    // No currency in token or body: 400 validation_failed naming cryptoCurrencyCode.
    const none = await openTopUp(uniqueSub("none"));
    expect(none.status).toBe(400);
    expect(none.body.error?.code).toBe("validation_failed");
    expect(none.body.error?.message).toContain("cryptoCurrencyCode");
    // A crypto currency the service does not list: 400 currency_unavailable.
    const unknown = await openTopUp(uniqueSub("unk"), {}, { cryptoCurrencyCode: "DOGE" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.code).toBe("currency_unavailable");
    // The page asking for another currency than the token fixes: 400 validation_failed.
    const mismatch = await openTopUp(
      uniqueSub("mis"),
      { cryptoCurrencyCode: "BTC" },
      { cryptoCurrencyCode: "ETH" },
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error?.code).toBe("validation_failed");
    // A forged token: 401 token_invalid.
    const forged = await postJson("/v1/deposits", { token: "a.b.c" }, ip);
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as Body).error?.code).toBe("token_invalid");
    expect((await upstreamRequests("/deposit", "POST")).length).toBe(before);
    // Unknown and malformed ids: 404 not_found.
    expect((await worker("/v1/deposits/dAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    expect((await worker("/v1/deposits/not-an-id")).status).toBe(404);
    expect((await worker("/v1/deposits/dAAAAAAAAAAAAAAAAAAAAAA/events")).status).toBe(404);
  });

  it("refuses a disallowed origin with 403 forbidden_origin", async () => {
    const t = await token({ sub: uniqueSub("origin"), mode: "deposit", cryptoCurrencyCode: "TRX" });
    const res = await postJson(
      "/v1/deposits",
      { token: t },
      { origin: "https://evil.example", "cf-connecting-ip": uniqueIp() },
    );
    expect(res.status).toBe(403);
  });
});

describe("deposit fee quote unavailable (503 exceptions.depositFee.quoteUnavailable)", () => {
  const quoteUnavailable = (times: number) =>
    fault({
      path: "/deposit",
      method: "POST",
      mode: "status",
      status: 503,
      code: "exceptions.depositFee.quoteUnavailable",
      times,
    });

  it("is retried briefly with the same orderId, then succeeds", async () => {
    await quoteUnavailable(2);
    const before = (await upstreamRequests("/deposit", "POST")).length;
    const { status, body } = await openTopUp(uniqueSub("qu"), { cryptoCurrencyCode: "USDT_TRC20" });
    expect(status).toBe(201);
    expect(body.data.status).toBe("created");
    const after = await upstreamRequests("/deposit", "POST");
    expect(after.length).toBe(before + 3);
    expect(after.slice(-3).map((r) => r.status)).toEqual([503, 503, 201]);
  });

  it("answers 503 service_busy 'try again in a moment' when it persists; a later try succeeds", async () => {
    await quoteUnavailable(3);
    const sub = uniqueSub("qu2");
    const busy = await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" });
    expect(busy.status).toBe(503);
    expect(busy.body.error?.code).toBe("service_busy");
    expect(busy.body.error?.message).toContain("try again in a moment");
    const later = await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" });
    expect(later.status).toBe(201);
  });
});

describe("deposit.statusChanged webhooks", () => {
  it("credits received − network fee − commission exactly (checked with big.js), notifies the merchant once", async () => {
    const sub = uniqueSub("paid");
    const orderId = `cc-${sub}`;
    const { body } = await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" });
    const live = await liveCurrency("USDT_TRC20");
    const balanceBefore = await balance("USDT_TRC20");
    // 100.000001 × 0.005 = 0.500000005: rounded up it is 0.500001, half-up would give 0.5.
    const received = "100.000001";
    expect((await simulateDeposit(orderId, "completed", received)).status).toBe(200);
    const hooks = await depositDeliveries(orderId);
    expect(hooks.map((h) => JSON.parse(h.body).data.status)).toEqual(["processing", "completed"]);
    for (const h of hooks) expect((await deliver(h)).status).toBe(200);

    const snap = ((await (await worker(`/v1/deposits/${body.data.id}`)).json()) as Body).data;
    expect(snap.status).toBe("completed");
    expect(snap.final).toBe(true);
    // Independent computation: commission rounded up to the currency's places, fee from the list.
    const commission = new Big(received)
      .times(live.depositCommission)
      .round(live.decimalPlaces, Big.roundUp);
    const halfUp = new Big(received)
      .times(live.depositCommission)
      .round(live.decimalPlaces, Big.roundHalfUp);
    expect(commission.eq(halfUp)).toBe(false);
    const fee = new Big(live.depositNetworkFee!.amount);
    const net = new Big(received).minus(fee).minus(commission);
    expect(snap.settlement).toEqual({
      received,
      networkFee: fee.toFixed(),
      commission: commission.toFixed(),
      net: net.toFixed(),
      source: "service",
    });
    // The service credited exactly that net.
    expect(new Big(await balance("USDT_TRC20")).minus(balanceBefore).toFixed()).toBe(net.toFixed());

    // The merchant hears deposit.completed once, with the same exact amounts: wait for it,
    // redeliver every webhook, let the outbox run again, and only then count.
    const completedNotes = async () => {
      const inbox = await sandbox<{ data: { body: string }[] }>("/sandbox/merchant-inbox");
      return inbox.body.data
        .map((e) => JSON.parse(e.body) as { type: string; data: Record<string, unknown> })
        .filter((n) => n.type === "deposit.completed" && n.data.topUpId === sub);
    };
    let completed: { data: Record<string, unknown> }[] = [];
    for (let i = 0; i < 50 && completed.length === 0; i++) {
      completed = await completedNotes();
      if (completed.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    for (const h of hooks) expect((await deliver(h)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    completed = await completedNotes();
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toMatchObject({
      orderId,
      customerId: "cust-7",
      amount: received,
      commission: commission.toFixed(),
      networkFee: fee.toFixed(),
      net: net.toFixed(),
      status: "completed",
    });
  });

  it("a top-up whose deposit the service already completed when it was first written (its create answer lost) sends deposit.completed once", async () => {
    const sub = uniqueSub("pre");
    const orderId = `cc-${sub}`;
    // The deposit exists at the service under the top-up's orderId and is completed before the
    // worker ever stored it (an earlier try of this create reached the service).
    const made = await sandbox("/deposit", {
      method: "POST",
      headers: { "content-type": "application/json", "x-tenant-api-key": env.API_KEY as string },
      body: JSON.stringify({
        accountId: env.ACCOUNT_ID,
        cryptoCurrencyCode: "USDT_TRC20",
        orderId,
        customerId: "cust-7",
      }),
    });
    expect(made.status).toBe(201);
    expect((await simulateDeposit(orderId, "completed", "50")).status).toBe(200);
    // The create's answer is lost and its retry is refused as a repeated orderId: the worker
    // reads the deposit back by orderId (a create answer has no status; the read-back has
    // one, and it is already completed).
    await fault({ path: "/deposit", method: "POST", mode: "drop", times: 1 });
    await fault({
      path: "/deposit",
      method: "POST",
      mode: "status",
      status: 409,
      code: "exceptions.deposit.orderIdAlreadyExists",
      times: 1,
    });
    const { status, body } = await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" });
    expect(status).toBe(201);
    expect(body.data.status).toBe("completed");
    const notes = async () => {
      const inbox = await sandbox<{ data: { body: string }[] }>("/sandbox/merchant-inbox");
      return inbox.body.data
        .map((e) => JSON.parse(e.body) as { type: string; data: Record<string, unknown> })
        .filter((n) => n.data.topUpId === sub);
    };
    let seen: { type: string; data: Record<string, unknown> }[] = [];
    for (let i = 0; i < 50 && !seen.some((n) => n.type === "deposit.completed"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await notes();
    }
    // Opening again changes nothing and tells the merchant nothing more.
    expect((await openTopUp(sub, { cryptoCurrencyCode: "USDT_TRC20" })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_000));
    seen = await notes();
    expect(seen.filter((n) => n.type === "deposit.completed")).toHaveLength(1);
    expect(seen.find((n) => n.type === "deposit.completed")!.data).toMatchObject({
      orderId,
      amount: "50",
      status: "completed",
    });
    expect(seen.find((n) => n.type === "deposit.status_changed")?.data).toMatchObject({
      previousStatus: "created",
      status: "completed",
    });
  });

  it("applies a delivery's whole deposit as a read: completed with its settlement, no GET /deposit", async () => {
    const sub = uniqueSub("rec");
    const orderId = `cc-${sub}`;
    const { body } = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    await simulateDeposit(orderId, "completed", "50");
    const reads = (await upstreamRequests("/deposit", "GET")).length;
    for (const d of await depositDeliveries(orderId)) expect((await deliver(d)).status).toBe(200);
    expect((await upstreamRequests("/deposit", "GET")).length).toBe(reads);
    const snap = ((await (await worker(`/v1/deposits/${body.data.id}`)).json()) as Body).data;
    expect([snap.status, snap.settlement?.received]).toEqual(["completed", "50"]);
  });

  it("dedupes a repeated delivery and never moves a completed top-up backwards", async () => {
    const sub = uniqueSub("dup");
    const orderId = `cc-${sub}`;
    const { body } = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    await simulateDeposit(orderId, "completed", "50");
    const [processing, completed] = await depositDeliveries(orderId);
    // Out of order: completed first, then the stale processing, then completed again.
    const first = await deliver(completed!);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    const stale = await deliver(processing!);
    expect(stale.status).toBe(200);
    const again = await deliver(completed!);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    const snap = ((await (await worker(`/v1/deposits/${body.data.id}`)).json()) as Body).data;
    expect(snap.status).toBe("completed");
    // created + completed: the stale and the duplicate delivery appended nothing.
    expect(snap.seq).toBe(2);
  });

  it("a delivery without a whole deposit is a prompt: 503 when it cannot be re-read, applied on the redelivery", async () => {
    const sub = uniqueSub("busy");
    const orderId = `cc-${sub}`;
    const { body } = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    await simulateDeposit(orderId, "processing");
    const [whole] = await depositDeliveries(orderId);
    const hook = await withoutRecord(whole!);
    // The webhook path reads once (WEBHOOK_REFETCH) and answers 503; the service redelivers.
    await fault({
      path: "/deposit",
      method: "GET",
      mode: "status",
      status: 500,
      times: 1,
      scope: orderId,
    });
    const readsBefore = (await upstreamRequests("/deposit", "GET")).length;
    const refused = await deliver(hook);
    expect(refused.status).toBe(503);
    expect((await upstreamRequests("/deposit", "GET")).length).toBe(readsBefore + 1);
    const unchanged = ((await (await worker(`/v1/deposits/${body.data.id}`)).json()) as Body).data;
    expect(unchanged.status).toBe("created");
    // The service retries the same bytes: not a duplicate, because nothing was applied.
    expect(await (await deliver(hook)).json()).toEqual({ received: true, duplicate: false });
    const applied = ((await (await worker(`/v1/deposits/${body.data.id}`)).json()) as Body).data;
    expect(applied.status).toBe("processing");
  });

  it("acknowledges a deposit webhook for an unknown top-up with 202 and changes nothing", async () => {
    const orderId = `cc-${uniqueSub("ghost")}`;
    await sandbox("/deposit", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-tenant-api-key": "test-api-key-never-shown",
      },
      body: JSON.stringify({
        accountId: "00000000-0000-4000-8000-000000000001",
        cryptoCurrencyCode: "TRX",
        orderId,
      }),
    });
    await simulateDeposit(orderId, "processing");
    const [hook] = await depositDeliveries(orderId);
    const res = await deliver(hook!);
    expect(res.status).toBe(202);
  });

  // SDK Deposit: orderId and address are optional. A verified delivery without them is
  // acknowledged (2xx), never refused: a redelivery would not add them.
  it("acknowledges a verified deposit webhook without orderId with 202 (not ours), never 422", async () => {
    const sub = uniqueSub("noorder");
    const orderId = `cc-${sub}`;
    await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    await simulateDeposit(orderId, "processing");
    const [hook] = await depositDeliveries(orderId);
    const { orderId: _, ...data } = JSON.parse(hook!.body).data;
    const body = JSON.stringify({ ...JSON.parse(hook!.body), data });
    const res = await deliver({ body, signature: await hmacHex(signingKey, body) });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { ignored: string }).ignored).toBe("unknown deposit");
  });

  it("applies a verified deposit webhook without address (the object reads the deposit)", async () => {
    const sub = uniqueSub("noaddr");
    const orderId = `cc-${sub}`;
    const { body: opened } = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    await simulateDeposit(orderId, "processing");
    const [hook] = await depositDeliveries(orderId);
    const { address: _, ...data } = JSON.parse(hook!.body).data;
    const body = JSON.stringify({ ...JSON.parse(hook!.body), data });
    const res = await deliver({ body, signature: await hmacHex(signingKey, body) });
    expect(res.status).toBe(200);
    const snap = ((await (await worker(`/v1/deposits/${opened.data.id}`)).json()) as Body).data;
    expect([snap.status, snap.address]).toEqual(["processing", opened.data.address]);
  });

  it("rejects an unsigned deposit webhook with 401", async () => {
    const res = await worker("/webhooks/payment", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        event: "deposit.statusChanged",
        data: { id: "x", orderId: "cc-x" },
        timestamp: "t",
      }),
    });
    expect(res.status).toBe(401);
  });
});

describe("GET /v1/deposits/:id/events", () => {
  it("streams the current snapshot first, pushes changes live, replays after Last-Event-ID, closes when final", async () => {
    const sub = uniqueSub("sse");
    const orderId = `cc-${sub}`;
    const { body } = await openTopUp(sub, { cryptoCurrencyCode: "TRX" });
    const id = body.data.id;
    const live = await worker(`/v1/deposits/${id}/events`, { headers: { origin: STOREFRONT } });
    expect(live.headers.get("content-type")).toContain("text/event-stream");
    expect(live.headers.get("access-control-allow-origin")).toBe(STOREFRONT);
    const reading = readFrames<DepositSnapshot>(live, 3);
    await new Promise((r) => setTimeout(r, 100));
    // Each webhook is only a prompt: the object re-reads the deposit, so deliver step by step.
    await simulateDeposit(orderId, "processing");
    for (const h of await depositDeliveries(orderId)) await deliver(h);
    await simulateDeposit(orderId, "completed", "40");
    for (const h of await depositDeliveries(orderId)) await deliver(h);
    const { frames, ended } = await reading;
    expect(frames.map((f) => [f.id, f.data.status])).toEqual([
      [1, "created"],
      [2, "processing"],
      [3, "completed"],
    ]);
    expect(ended).toBe(true);

    const replay = await readFrames<DepositSnapshot>(
      await worker(`/v1/deposits/${id}/events`, { headers: { "last-event-id": "1" } }),
      5,
    );
    expect(replay.frames.map((f) => f.id)).toEqual([2, 3]);
    expect(replay.ended).toBe(true);
    // Fully seen and final: 204 stops EventSource for good.
    const done = await worker(`/v1/deposits/${id}/events`, { headers: { "last-event-id": "3" } });
    expect(done.status).toBe(204);
  });
});

describe("settlement maths and the completion notification (pure)", () => {
  const terms = { depositCommission: "0.0075", decimalPlaces: 6, depositNetworkFee: "1" };

  it("computeSettlement rounds the commission up, caps the fee, never gives a negative net", () => {
    expect(computeSettlement("100.000001", terms)).toEqual({
      received: "100.000001",
      commission: "0.750001",
      networkFee: "1",
      net: "98.25",
    });
    // Less than the fee left after commission: the fee takes what is left, net is 0.
    expect(computeSettlement("0.5", terms)).toEqual({
      received: "0.5",
      commission: "0.00375",
      networkFee: "0.49625",
      net: "0",
    });
  });

  it("settlementAgrees accepts the rule's numbers and flags a half-up commission or a broken identity", () => {
    const ok = { received: "100.000001", networkFee: "1", commission: "0.750001", net: "98.25" };
    expect(settlementAgrees({ ...ok, source: "service" }, terms)).toBe(true);
    const halfUp = { ...ok, commission: "0.75", net: "98.250001", source: "service" as const };
    expect(settlementAgrees(halfUp, terms)).toBe(false);
    expect(settlementAgrees({ ...ok, net: "98.26", source: "service" }, terms)).toBe(false);
  });

  it("sends deposit.completed once, only when the completed deposit carries its settlement", () => {
    const settlement = {
      amountPaid: "40",
      commissionAmount: "0.3",
      depositNetworkFeeAmount: "1",
      netAmount: "38.7",
      txHash: "0xabc",
    } as unknown as Settlement;
    const row = {
      topUpId: "t1",
      orderId: "cc-t1",
      depositId: "dep_1",
      customerId: null,
      currency: { code: "USDT_TRC20", depositCommission: "0.0075" },
      status: "completed",
      settlement: null,
    } as unknown as DepositRow;
    const now = "2026-01-01T00:00:00.000Z";
    const types = (ns: { type: string }[]) => ns.map((n) => n.type);
    // Completed, but read back before the service settled it: no completion with null amounts.
    const early = depositNotifications(row, { status: "processing", settlement: null }, now);
    expect(types(early)).toEqual(["deposit.status_changed"]);
    // The settlement arrives later: now the merchant hears it, with the amounts.
    const settled = { ...row, settlement };
    const late = depositNotifications(settled, { status: "completed", settlement: null }, now);
    expect(types(late)).toEqual(["deposit.completed"]);
    expect(late[0]!.data).toMatchObject({ amount: "40", commission: "0.3", net: "38.7" });
    // Once reported, never again.
    expect(depositNotifications(settled, { status: "completed", settlement }, now)).toEqual([]);
  });
});
