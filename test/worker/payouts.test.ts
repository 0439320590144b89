/**
 * Payouts (withdrawal quote → commit) through the merchant API: validation, quote collapse per
 * orderId, commit exactly once under concurrency, re-quote after expiry, insufficient balance,
 * and withdrawal.statusChanged webhooks.
 */
import Big from "big.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import { clearFaults } from "../support/sandbox-faults.ts";
import {
  balance,
  deliver,
  deliveriesFor,
  fault,
  faultsLeftFor,
  merchant,
  restamped,
  sandbox,
  stampOf,
  uniqueSub,
  upstreamRequests,
  withoutRecord,
  worker,
} from "./helpers.ts";
import { SHOPPER_TRON as TRON } from "./orders.ts";

type Body = { data: PayoutView; error?: { code: string; message: string } };

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";

async function quote(body: Record<string, unknown>) {
  const res = await merchant("/v1/payouts", { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Body };
}

async function commit(orderId: string) {
  const res = await merchant(`/v1/payouts/${encodeURIComponent(orderId)}/commit`, {
    method: "POST",
  });
  return { status: res.status, body: (await res.json()) as Body };
}

function setBalance(cryptoCurrencyCode: string, amount: string) {
  return sandbox("/sandbox/balances", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cryptoCurrencyCode, amount }),
  });
}

const count = async (path: string) => (await upstreamRequests(path, "POST")).length;

/** Ends the sandbox's current quote for an orderId now (the service's own expiry). */
function expireUpstreamQuote(orderId: string) {
  return sandbox<{ data: { quoteId: string; expiresAt: string } }>(
    `/sandbox/withdrawal-quotes/${encodeURIComponent(orderId)}/expire`,
    { method: "POST" },
  );
}

afterEach(async () => {
  vi.useRealTimers();
  await clearFaults();
});

describe("POST /v1/payouts (quote)", () => {
  it("quotes with the fee breakdown in the base coin and the withdrawal currency (201)", async () => {
    const orderId = uniqueSub("po");
    const { status, body } = await quote({
      orderId,
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON,
      amount: "25.50",
    });
    expect(status).toBe(201);
    const view = body.data;
    expect(view).toMatchObject({
      orderId,
      kind: "payout",
      status: "quoted",
      cryptoCurrencyCode: "USDT_TRC20",
      network: "Tron",
      address: TRON,
      amount: "25.5",
      withdrawal: null,
    });
    // The chain's base coin pays the fee; the same fee in USDT makes up the total deduction.
    expect(view.fee.feeCurrency).toBe("TRX");
    expect(new Big(view.fee.feeNative).gt(0)).toBe(true);
    expect(
      new Big(view.totalDeduction).eq(new Big("25.5").plus(view.fee.feeInCryptoCurrencyCode)),
    ).toBe(true);
    expect(view.fee.feeUsd).not.toBeNull();
    expect(Date.parse(view.expiresAt)).toBeGreaterThan(Date.now());
    const again = await merchant(`/v1/payouts/${orderId}`);
    expect(((await again.json()) as Body).data.quoteId).toBe(view.quoteId);
  });

  it("collapses a repeated orderId to one quote (200), even concurrently; other parameters get 409 checkout_conflict", async () => {
    const orderId = uniqueSub("collapse");
    const params = { orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "30" };
    const before = await count("/withdrawal/quote");
    const results = await Promise.all(Array.from({ length: 8 }, () => quote(params)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.quoteId)).size).toBe(1);
    // "30.0" is the same amount as "30": the same payout.
    expect((await quote({ ...params, amount: "30.0" })).status).toBe(200);
    expect(await count("/withdrawal/quote")).toBe(before + 1);
    for (const other of [
      { amount: "31" },
      { address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" },
      { cryptoCurrencyCode: "USDT_TRC20" },
    ]) {
      const conflict = await quote({ ...params, ...other });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error?.code).toBe("checkout_conflict");
    }
    expect(await count("/withdrawal/quote")).toBe(before + 1);
  });

  it("refuses an EVM address whose mixed case is not its EIP-55 checksum, and quotes nothing", async () => {
    // EIP-55's own example; the typo flips the case of one letter (f → F after "ca1d").
    const right = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
    const typo = "0xfB6916095ca1dF60bB79Ce92cE3Ea74c37c5d359";
    for (const cryptoCurrencyCode of ["USDT_ERC20", "BNB"]) {
      const before = await count("/withdrawal/quote");
      const amount = "25";
      const bad = await quote({
        orderId: uniqueSub("typo"),
        cryptoCurrencyCode,
        address: typo,
        amount,
      });
      expect([cryptoCurrencyCode, bad.status, bad.body.error?.code]).toEqual([
        cryptoCurrencyCode,
        400,
        "invalid_address",
      ]);
      expect(bad.body.error?.message).toContain("checksum");
      expect(await count("/withdrawal/quote")).toBe(before);
      for (const address of [right, right.toLowerCase()]) {
        const good = await quote({
          orderId: uniqueSub("evm"),
          cryptoCurrencyCode,
          address,
          amount,
        });
        expect([cryptoCurrencyCode, address, good.status]).toEqual([
          cryptoCurrencyCode,
          address,
          201,
        ]);
        expect(good.body.data.address).toBe(address);
      }
    }
  }, 30_000);

  it("refuses bad input with a clear code and quotes nothing", async () => {
    const before = await count("/withdrawal/quote");
    const base = {
      orderId: uniqueSub("bad"),
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON,
      amount: "25",
    };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ address: EVM }, 400, "invalid_address"], // an Ethereum address for a Tron currency
      [{ address: "T123" }, 400, "invalid_address"],
      [{ amount: "1" }, 400, "amount_below_minimum"], // below minWithdrawalAmount (10)
      [{ amount: "10.1234567" }, 400, "amount_invalid_decimals"], // USDT_TRC20 has 6 places
      [{ cryptoCurrencyCode: "DOGE" }, 400, "currency_unavailable"],
      [{ amount: 25 }, 400, "validation_failed"], // amounts are strings, never JSON numbers
      [{ amount: "-25" }, 400, "validation_failed"],
      [{ amount: "1e3" }, 400, "validation_failed"],
      [{ orderId: "has spaces" }, 400, "validation_failed"],
      [{ amuont: "25" }, 400, "validation_failed"], // a misspelt field is named, never ignored
    ];
    for (const [patch, status, code] of cases) {
      const res = await quote({ ...base, ...patch });
      expect([JSON.stringify(patch), res.status, res.body.error?.code]).toEqual([
        JSON.stringify(patch),
        status,
        code,
      ]);
      expect(res.body.error?.message).toBeTruthy();
    }
    // A JSON number: the field named once, not "amount: amount must be…".
    const number = await quote({ ...base, amount: 25 });
    expect(number.body.error?.message).toBe('amount: must be a decimal string such as "25.50"');
    const missing = await quote({
      orderId: uniqueSub("m"),
      cryptoCurrencyCode: "TRX",
      address: TRON,
    });
    expect([missing.status, missing.body.error?.code]).toEqual([400, "validation_failed"]);
    expect(await count("/withdrawal/quote")).toBe(before);
    expect((await merchant(`/v1/payouts/${base.orderId}`)).status).toBe(404);
  });

  it("requires the merchant token: 401 unauthorized without it", async () => {
    const body = JSON.stringify({
      orderId: uniqueSub("auth"),
      cryptoCurrencyCode: "TRX",
      address: TRON,
      amount: "30",
    });
    const res = await worker("/v1/payouts", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(401);
    expect((await worker("/v1/payouts/x/commit", { method: "POST" })).status).toBe(401);
    expect((await worker("/v1/payouts/x")).status).toBe(401);
    expect((await worker("/v1/orders/x/refund", { method: "POST" })).status).toBe(401);
  });
});

describe("POST /v1/payouts/:orderId/commit", () => {
  it("commits once under 20 concurrent commits: one withdrawal, the balance debited once", async () => {
    const orderId = uniqueSub("once");
    const { body } = await quote({
      orderId,
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON,
      amount: "12.5",
    });
    const before = await balance("USDT_TRC20");
    const commitsBefore = await count("/withdrawal/commit");
    const results = await Promise.all(Array.from({ length: 20 }, () => commit(orderId)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = new Set(results.map((r) => r.body.data.withdrawal?.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toBeTruthy();
    expect(results[0]!.body.data.status).toBe("created");
    expect(await count("/withdrawal/commit")).toBe(commitsBefore + 1);
    const debited = new Big(before).minus(await balance("USDT_TRC20"));
    expect(debited.toFixed()).toBe(new Big(body.data.totalDeduction).toFixed());
    expect(results[0]!.body.data.withdrawal?.debitedAmount).toBe(body.data.totalDeduction);
    // Later commits still return the same withdrawal and debit nothing.
    const later = await commit(orderId);
    expect(later.body.data.withdrawal?.id).toBe([...ids][0]);
    expect(await balance("USDT_TRC20")).toBe(String(new Big(before).minus(debited)));
    // A quote after commit returns the committed payout, not a new quote.
    const requote = await quote({
      orderId,
      cryptoCurrencyCode: "USDT_TRC20",
      address: TRON,
      amount: "12.5",
    });
    expect([requote.status, requote.body.data.status]).toEqual([200, "created"]);
  });

  it("re-quotes a quote the sandbox really expired: a new quoteId, one withdrawal, one debit, even under 20 concurrent commits", async () => {
    const orderId = uniqueSub("expired");
    const first = (
      await quote({ orderId, cryptoCurrencyCode: "USDT_TRC20", address: TRON, amount: "15" })
    ).body.data;
    // The worker still believes the quote valid (its expiresAt is ~60 s ahead); the service does not.
    const expired = await expireUpstreamQuote(orderId);
    expect([expired.status, expired.body.data.quoteId]).toEqual([200, first.quoteId]);
    const before = await balance("USDT_TRC20");
    const quotes = await count("/withdrawal/quote");
    const commitsBefore = await count("/withdrawal/commit");
    const results = await Promise.all(Array.from({ length: 20 }, () => commit(orderId)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(results.map((r) => r.body.data.withdrawal?.id));
    expect(ids.size).toBe(1);
    const view = results[0]!.body.data;
    expect(view.status).toBe("created");
    expect(view.quoteId).not.toBe(first.quoteId);
    // Upstream: the expired quoteId is refused once, one re-quote (same orderId), one commit.
    const commits = (await upstreamRequests("/withdrawal/commit", "POST")).slice(commitsBefore);
    expect(commits.map((r) => r.status)).toEqual([409, 201]);
    expect(await count("/withdrawal/quote")).toBe(quotes + 1);
    const upstream = await sandbox<{ data: { id: string; quoteId: string; orderId: string } }>(
      `/withdrawal?accountId=00000000-0000-4000-8000-000000000001&orderId=${orderId}`,
      { headers: { "x-tenant-api-key": "test-api-key-never-shown" } },
    );
    expect(upstream.body.data).toMatchObject({ id: [...ids][0], quoteId: view.quoteId, orderId });
    // totalDeduction debited exactly once.
    const debited = new Big(before).minus(await balance("USDT_TRC20"));
    expect(debited.toFixed()).toBe(new Big(view.totalDeduction).toFixed());
    expect(view.withdrawal?.debitedAmount).toBe(view.totalDeduction);
    const later = await commit(orderId);
    expect(later.body.data.withdrawal?.id).toBe([...ids][0]);
    expect(new Big(before).minus(await balance("USDT_TRC20")).toFixed()).toBe(debited.toFixed());
    expect(await count("/withdrawal/commit")).toBe(commitsBefore + 2);
  });

  // The service publishes no code for an expired quote: whatever 4xx it refuses a commit with
  // (the sandbox's assumed quoteExpired, or a published quote code), the worker re-quotes once.
  it.each([
    [409, "exceptions.withdrawal.quoteExpired"],
    [404, "exceptions.withdrawal.notFound"],
    [400, "exceptions.withdrawal.quoteDecisionMissing"],
    [409, "exceptions.withdrawal.someFutureCode"],
  ])(
    "re-quotes with the same orderId when the service refuses the quote (%i %s), then commits",
    async (status, code) => {
      const orderId = uniqueSub("exp");
      await quote({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "25" });
      await fault({ path: "/withdrawal/commit", method: "POST", mode: "status", status, code });
      const quotes = await count("/withdrawal/quote");
      const commits = await count("/withdrawal/commit");
      const res = await commit(orderId);
      expect(res.status).toBe(200);
      expect(res.body.data.withdrawal?.status).toBe("created");
      expect(await count("/withdrawal/quote")).toBe(quotes + 1);
      expect(await count("/withdrawal/commit")).toBe(commits + 2);
      const upstream = await sandbox<{ data: { orderId: string; amount: number | string } }>(
        `/withdrawal?accountId=00000000-0000-4000-8000-000000000001&orderId=${orderId}`,
        { headers: { "x-tenant-api-key": "test-api-key-never-shown" } },
      );
      expect(upstream.body.data.orderId).toBe(orderId);
    },
  );

  it("re-quotes only once: a second refusal of the fresh quote is answered, nothing committed", async () => {
    const orderId = uniqueSub("exp2");
    await quote({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "25" });
    const code = "exceptions.withdrawal.malformedQuote";
    await fault({
      path: "/withdrawal/commit",
      method: "POST",
      mode: "status",
      status: 400,
      code,
      times: 2,
    });
    const quotes = await count("/withdrawal/quote");
    const commits = await count("/withdrawal/commit");
    const res = await commit(orderId);
    expect([res.status, res.body.error?.code]).toEqual([502, "upstream_error"]);
    expect(await count("/withdrawal/quote")).toBe(quotes + 1);
    expect(await count("/withdrawal/commit")).toBe(commits + 2);
    const view = (await (await merchant(`/v1/payouts/${orderId}`)).json()) as Body;
    expect([view.data.status, view.data.withdrawal]).toEqual(["quoted", null]);
  });

  it("does not re-quote a commit refused for insufficient balance", async () => {
    const orderId = uniqueSub("poor");
    await quote({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "25" });
    const code = "exceptions.withdrawal.insufficientBalance";
    await fault({ path: "/withdrawal/commit", method: "POST", mode: "status", status: 400, code });
    const quotes = await count("/withdrawal/quote");
    const res = await commit(orderId);
    expect([res.status, res.body.error?.code]).toEqual([409, "insufficient_balance"]);
    expect(await count("/withdrawal/quote")).toBe(quotes);
  });

  it("re-quotes before committing a quote whose expiresAt has passed (worker clock moved past it)", async () => {
    const orderId = uniqueSub("late");
    const { body } = await quote({
      orderId,
      cryptoCurrencyCode: "TRX",
      address: TRON,
      amount: "25",
    });
    // Both clocks agree: the sandbox ends the quote, and the payout object (it runs in this
    // isolate) sees its expiresAt passed, so it re-quotes first and never commits the stale quote.
    expect((await expireUpstreamQuote(orderId)).status).toBe(200);
    const quotes = await count("/withdrawal/quote");
    const commits = await count("/withdrawal/commit");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(body.data.expiresAt) + 1_000 });
    const res = await commit(orderId);
    vi.useRealTimers();
    expect(res.status).toBe(200);
    expect(res.body.data.withdrawal).not.toBeNull();
    expect(res.body.data.quoteId).not.toBe(body.data.quoteId);
    expect(await count("/withdrawal/quote")).toBe(quotes + 1);
    expect(await count("/withdrawal/commit")).toBe(commits + 1);
  });

  it("adopts the withdrawal when a lost commit answer is followed by expiry: one commit, one debit", async () => {
    const orderId = uniqueSub("adopt");
    const { body } = await quote({
      orderId,
      cryptoCurrencyCode: "TRX",
      address: TRON,
      amount: "25",
    });
    const before = await balance("TRX");
    // Every commit answer is lost (the service did commit the first one).
    await fault({
      path: "/withdrawal/commit",
      method: "POST",
      mode: "timeout-after-create",
      times: 3,
      delayMs: 8500,
    });
    const first = await commit(orderId);
    expect(first.status).not.toBe(200);
    // Past the quote's expiry, the re-quote hears orderIdAlreadyExists and reads the withdrawal back.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(body.data.expiresAt) + 1_000 });
    const second = await commit(orderId);
    vi.useRealTimers();
    expect(second.status).toBe(200);
    expect(second.body.data.withdrawal).not.toBeNull();
    expect(new Big(before).minus(await balance("TRX")).toFixed()).toBe(
      new Big(body.data.totalDeduction).toFixed(),
    );
    // Debited exactly once: the adopted withdrawal is the one the lost commit made.
  }, 60_000);

  it("answers 409 insufficient_balance with a clear message and records nothing as committed", async () => {
    await setBalance("BNB", "0");
    const orderId = uniqueSub("poor");
    const { body } = await quote({
      orderId,
      cryptoCurrencyCode: "BNB",
      address: EVM,
      amount: "0.5",
    });
    expect(body.data.status).toBe("quoted");
    const res = await commit(orderId);
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe("insufficient_balance");
    expect(res.body.error?.message).toContain(`needs ${body.data.totalDeduction} BNB`);
    const view = ((await (await merchant(`/v1/payouts/${orderId}`)).json()) as Body).data;
    expect([view.status, view.withdrawal]).toEqual(["quoted", null]);
    expect(await balance("BNB")).toBe("0");
    // Once the balance suffices, the same payout commits.
    await setBalance("BNB", "1");
    const ok = await commit(orderId);
    expect([ok.status, ok.body.data.status]).toEqual([200, "created"]);
    expect(await balance("BNB")).toBe(new Big(1).minus(body.data.totalDeduction).toFixed());
  });

  it("answers 404 not_found for a payout never quoted", async () => {
    const res = await commit(uniqueSub("none"));
    expect([res.status, res.body.error?.code]).toEqual([404, "not_found"]);
  });
});

describe("withdrawal.statusChanged webhooks", () => {
  it("moves the payout forward only, dedupes deliveries and notifies the merchant", async () => {
    const orderId = uniqueSub("wh");
    await quote({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "40" });
    const committed = (await commit(orderId)).body.data;
    const simulated = await sandbox(`/sandbox/withdrawals/${committed.withdrawal!.id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "completed" }),
    });
    expect(simulated.status).toBe(200);
    const hooks = (await deliveriesFor(orderId)).filter(
      (d) => d.event === "withdrawal.statusChanged",
    );
    expect(hooks.map((h) => JSON.parse(h.body).data.status)).toEqual(["processing", "completed"]);
    // Out of order: completed, then the stale processing, then completed again.
    expect(await (await deliver(hooks[1]!)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(hooks[0]!)).status).toBe(200);
    expect(await (await deliver(hooks[1]!)).json()).toEqual({ received: true, duplicate: true });
    const view = ((await (await merchant(`/v1/payouts/${orderId}`)).json()) as Body).data;
    expect(view.status).toBe("completed");
    expect(view.withdrawal?.transactionHash).toBeTruthy();

    let notes: { data: Record<string, unknown> }[] = [];
    for (let i = 0; i < 50 && !notes.some((n) => n.data.status === "completed"); i++) {
      const inbox = await sandbox<{ data: { body: string }[] }>("/sandbox/merchant-inbox");
      notes = inbox.body.data
        .map((e) => JSON.parse(e.body) as { type: string; data: Record<string, unknown> })
        .filter((n) => n.type === "payout.status_changed" && n.data.orderId === orderId);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(notes.map((n) => [n.data.previousStatus, n.data.status])).toEqual([
      ["quoted", "created"],
      ["created", "completed"],
    ]);
  });
  it("keeps a completed payout completed when a stale processing read follows (monotonic rule), one completion notice", async () => {
    const orderId = uniqueSub("stale");
    await quote({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "45" });
    const id = (await commit(orderId)).body.data.withdrawal!.id;
    await sandbox(`/sandbox/withdrawals/${id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "completed" }),
    });
    const [processing, completed] = (await deliveriesFor(orderId)).filter(
      (d) => d.event === "withdrawal.statusChanged",
    );
    expect(await (await deliver(completed!)).json()).toEqual({ received: true, duplicate: false });
    expect(((await (await merchant(`/v1/payouts/${orderId}`)).json()) as Body).data.status).toBe(
      "completed",
    );
    // The service's next read lags behind (a replica): GET /withdrawal answers "processing" once.
    await fault({
      path: "/withdrawal",
      method: "GET",
      mode: "stale",
      asStatus: "processing",
      scope: orderId,
    });
    const reads = (await upstreamRequests("/withdrawal", "GET")).length;
    // The older whole `processing` record is a read older than what is known: acknowledged and
    // ignored, and nothing is read for it.
    expect((await deliver(processing!)).status).toBe(200);
    expect((await upstreamRequests("/withdrawal", "GET")).length).toBe(reads);
    // Without a record, stamped the same instant as `completed` (both came from one simulate
    // call): not superseded, so the worker reads the withdrawal; sent strictly earlier it would
    // be acknowledged unread (attack-superseded-delivery.test.ts).
    const sameInstant = await withoutRecord(await restamped(processing!, stampOf(completed!)));
    expect(await (await deliver(sameInstant)).json()).toEqual({
      received: true,
      duplicate: false,
    });
    // The worker did read the stale body (the fault is spent), and ignored it.
    expect((await upstreamRequests("/withdrawal", "GET")).length).toBe(reads + 1);
    expect(await faultsLeftFor(orderId)).toEqual([]);
    const view = ((await (await merchant(`/v1/payouts/${orderId}`)).json()) as Body).data;
    expect([view.status, view.withdrawal?.status]).toEqual(["completed", "completed"]);

    const notesFor = async () => {
      const inbox = await sandbox<{ data: { body: string }[] }>("/sandbox/merchant-inbox");
      return inbox.body.data
        .map((e) => JSON.parse(e.body) as { type: string; data: Record<string, unknown> })
        .filter((n) => n.type === "payout.status_changed" && n.data.orderId === orderId)
        .map((n) => [n.data.previousStatus, n.data.status]);
    };
    let notes = await notesFor();
    for (let i = 0; i < 50 && !notes.some(([, to]) => to === "completed"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      notes = await notesFor();
    }
    // Give a wrongly queued backward notice time to arrive before asserting there is none.
    await new Promise((r) => setTimeout(r, 500));
    expect(await notesFor()).toEqual([
      ["quoted", "created"],
      ["created", "completed"],
    ]);
  });
});
