/**
 * Issue 10, classes 1 and 3: money converges to the service's truth.
 *
 * - Class 1: a delivery's whole record is applied as a read, with no refetch, so a lagging
 *   replica cannot hold it back. A delivery without a whole record is a prompt: when its
 *   refetch reads an older state than it announced (the sandbox's `stale` fault) it is answered
 *   503 and not remembered, so the service's redelivery applies it: orders (`paid`, expiry after
 *   a partial), top-ups (`completed`), payouts (`completed`).
 * - Class 3: a webhook that never arrives: the object's alarm reads the service on a schedule
 *   (faster while a shopper watches, respecting 429 `msBeforeNext`) and converges anyway.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type {
  CheckoutSnapshot,
  DepositSnapshot,
  PayoutView,
} from "../../packages/contract/src/http-api.ts";
import { catalogClock, clearCatalogMemory } from "../../worker/core/catalog/catalog.ts";
import { CATALOG_FAILURE_TTL_MS, CATALOG_TTL_MS } from "../../worker/core/catalog/catalog-rpc.ts";
import { WATCHED_READ_MS } from "../../worker/core/converge/schedule.ts";
import { clearFaults, clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import {
  deliver,
  deliveriesFor,
  deploymentBudget,
  fault,
  forgetBudget,
  ledgerOf,
  merchant,
  postJson,
  sandbox,
  simulate,
  token,
  uniqueIp,
  uniqueSub,
  upstreamInvoice,
  upstreamRequests,
  withoutRecord,
  worker,
} from "./helpers.ts";
import { lockedCheckout, SHOPPER_TRON as TRON } from "./orders.ts";

clearFaultsAfterEach();

/**
 * Opens a USDT (TRC-20) top-up for invoice number `sub` and has the sandbox complete 50 on it;
 * no webhook is delivered yet. Returns the top-up's snapshot as opened.
 */
async function completedTopUp(sub: string): Promise<DepositSnapshot> {
  const orderId = `cc-${sub}`;
  const t = await token({ sub, mode: "deposit", customerId: "c1" });
  const opened = await postJson(
    "/v1/deposits",
    { token: t, cryptoCurrencyCode: "USDT_TRC20" },
    { "cf-connecting-ip": uniqueIp() },
  );
  const { data } = (await opened.json()) as { data: DepositSnapshot };
  await sandbox(`/sandbox/deposits/${encodeURIComponent(orderId)}/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action: "completed", amount: "50" }),
  });
  return data;
}

async function snapshot(id: string): Promise<CheckoutSnapshot> {
  return ((await (await worker(`/v1/checkouts/${id}`)).json()) as { data: CheckoutSnapshot }).data;
}

const lastHook = async (orderId: string, event: string) =>
  (await deliveriesFor(orderId)).filter((d) => d.event === event).at(-1)!;

const orderStub = (checkoutId: string) => env.ORDERS.get(env.ORDERS.idFromName(checkoutId));

/**
 * Makes every followed read of an object due now, then runs its alarm once (the object's own
 * alarm is armed for reads only without a reconciler; forced, it still reads what is due).
 */
async function reconcileNow(stub: DurableObjectStub) {
  const now = Date.now();
  await runInDurableObject(stub, async (_o: unknown, state: DurableObjectState) => {
    state.storage.sql.exec(
      "UPDATE upstream_objects SET next_read_at = ? WHERE next_read_at IS NOT NULL",
      now,
    );
    await state.storage.setAlarm(now);
  });
  await runDurableObjectAlarm(stub);
  // The runtime may be running the object's alarm on its own right now (ours then finds none
  // scheduled and returns false; that run, or the one it re-arms, makes the read): wait until
  // every read made due was done, running the alarm again while one is still due.
  for (let poll = 0; poll < 200; poll++) {
    const due = (await followed(stub)).filter(
      (r) => r.next_read_at !== null && r.next_read_at <= now,
    );
    if (due.length === 0) return;
    await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) =>
      state.storage.setAlarm(Date.now()),
    );
    await runDurableObjectAlarm(stub);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Locks `code` on an invoice directly at the service, as a request the worker abandoned would. */
async function lockAtService(invoiceId: string, code: string) {
  const res = await fetch(`${env.UPSTREAM_BASE_URL}/x-sandbox/invoice/lock-currency`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-tenant-api-key": String(env.API_KEY) },
    body: JSON.stringify({ accountId: env.ACCOUNT_ID, id: invoiceId, cryptoCurrencyCode: code }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

/** The followed rows of an object: kind, status known, next read (ms) or null. */
function followed(stub: DurableObjectStub) {
  return runInDurableObject(stub, (_o: unknown, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ kind: string; status: string; next_read_at: number | null }>(
        "SELECT kind, status, next_read_at FROM upstream_objects",
      )
      .toArray(),
  );
}

describe("class 1: a delivery without a whole record is acknowledged only when its refetch is as new as it announced", () => {
  it("order: a whole `paid` delivery is applied while every read lags: no read, paid once", async () => {
    const { sub, id, orderId } = await lockedCheckout("100.00", "conv");
    await simulate(orderId, "paid");
    const hooks = (await deliveriesFor(orderId)).filter((d) => d.event === "invoice.statusChanged");
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "stale",
      asStatus: "processing",
      times: 3,
      scope: orderId,
    });
    const invoiceId = JSON.parse(hooks[1]!.body).data.id as string;
    const invoiceReads = async () =>
      (await upstreamRequests("/invoice", "GET")).filter((r) => r.query.id === invoiceId).length;
    const reads = await invoiceReads();
    expect((await deliver(hooks[1]!)).status).toBe(200);
    // The older `processing` delivery arrives late: acknowledged, nothing moves back.
    expect(await (await deliver(hooks[0]!)).json()).toMatchObject({ received: true });
    expect(await invoiceReads()).toBe(reads);
    const l = await ledgerOf(sub);
    expect([l.state, l.attempts[0]!.status]).toEqual(["paid", "paid"]);
    expect(l.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
    expect((await snapshot(id)).final).toBe(true);
  });

  it("order: a lagging read after the final `paid` webhook answers 503; the redelivery pays the order once", async () => {
    const { sub, id, orderId } = await lockedCheckout("100.00", "conv");
    await simulate(orderId, "paid");
    const hooks = (await deliveriesFor(orderId)).filter((d) => d.event === "invoice.statusChanged");
    expect(hooks.map((h) => JSON.parse(h.body).data.status)).toEqual(["processing", "paid"]);
    const paid = await withoutRecord(hooks[1]!);

    // The `processing` webhook was lost; the `paid` one's refetch hits a lagging replica.
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "stale",
      asStatus: "processing",
      scope: orderId,
    });
    const lagging = await deliver(paid);
    expect(lagging.status).toBe(503);
    expect((await ledgerOf(sub)).attempts[0]!.status).toBe("processing");

    // Not remembered as handled: the service's redelivery is applied, not dropped as a duplicate.
    const redelivered = await deliver(paid);
    expect(redelivered.status).toBe(200);
    expect(await redelivered.json()).toEqual({ received: true, duplicate: false });
    const l = await ledgerOf(sub);
    expect([l.state, l.attempts[0]!.status]).toEqual(["paid", "paid"]);
    expect(l.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
    expect((await snapshot(id)).final).toBe(true);
  });

  it("order: a lagging read after `expired` (after a partial) answers 503; the redelivery lets the shopper pay the rest", async () => {
    const { id, orderId } = await lockedCheckout("100.00", "conv");
    await simulate(orderId, "partial", "40");
    for (const d of await deliveriesFor(orderId)) expect((await deliver(d)).status).toBe(200);
    await simulate(orderId, "expire");
    const whole = await lastHook(orderId, "invoice.statusChanged");
    expect(JSON.parse(whole.body).data.status).toBe("expired");
    const expired = await withoutRecord(whole);

    await fault({
      path: "/invoice",
      method: "GET",
      mode: "stale",
      asStatus: "partially_paid",
      scope: orderId,
    });
    expect((await deliver(expired)).status).toBe(503);
    expect((await snapshot(id)).canRetry).toBe(false);

    expect((await deliver(expired)).status).toBe(200);
    expect((await snapshot(id)).canRetry).toBe(true);
    const retry = await worker(`/v1/checkouts/${id}/retry`, { method: "POST" });
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { data: CheckoutSnapshot }).data.amountDue).toBe("60.00");
  });

  it("top-up: a lagging read after `completed` answers 503; the redelivery completes it", async () => {
    const sub = uniqueSub("convdep");
    const orderId = `cc-${sub}`;
    const data = await completedTopUp(sub);
    const hooks = (await deliveriesFor(orderId)).filter((d) => d.event === "deposit.statusChanged");
    const completed = await withoutRecord(hooks[1]!);
    await fault({
      path: "/deposit",
      method: "GET",
      mode: "stale",
      asStatus: "processing",
      scope: orderId,
    });
    expect((await deliver(completed)).status).toBe(503);
    const view = async () =>
      ((await (await worker(`/v1/deposits/${data.id}`)).json()) as { data: DepositSnapshot }).data;
    expect((await view()).status).toBe("processing");
    expect((await deliver(completed)).status).toBe(200);
    expect((await view()).status).toBe("completed");
    expect((await view()).settlement?.received).toBe("50");
  });

  it("payout: a lagging read after `completed` answers 503; the redelivery completes it", async () => {
    const orderId = uniqueSub("convpo");
    await merchant("/v1/payouts", {
      method: "POST",
      body: JSON.stringify({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "30" }),
    });
    const committed = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
    const w = ((await committed.json()) as { data: PayoutView }).data.withdrawal!;
    await sandbox(`/sandbox/withdrawals/${w.id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "completed" }),
    });
    const hooks = (await deliveriesFor(orderId)).filter(
      (d) => d.event === "withdrawal.statusChanged",
    );
    const completed = await withoutRecord(hooks[1]!);
    await fault({
      path: "/withdrawal",
      method: "GET",
      mode: "stale",
      asStatus: "processing",
      scope: orderId,
    });
    expect((await deliver(completed)).status).toBe(503);
    const view = async () =>
      ((await (await merchant(`/v1/payouts/${orderId}`)).json()) as { data: PayoutView }).data;
    expect((await view()).status).toBe("processing");
    expect((await deliver(completed)).status).toBe(200);
    expect((await view()).status).toBe("completed");
  });
});

describe("class 3: a webhook that never arrives still converges (reconciliation alarm)", () => {
  it("order paid at the service, no webhook delivered: the alarm's read pays it, once, and stops reading", async () => {
    const { sub, id, orderId } = await lockedCheckout("100.00", "conv");
    await simulate(orderId, "paid");
    const stub = orderStub(id);
    expect((await followed(stub)).map((r) => r.kind)).toEqual(["invoice"]);
    await reconcileNow(stub);
    const l = await ledgerOf(sub);
    expect([l.state, l.amountPaid]).toEqual(["paid", "100.00"]);
    expect(l.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
    // Paid is final for the order: it is no longer read.
    expect(await followed(stub)).toEqual([{ kind: "invoice", status: "paid", next_read_at: null }]);
    // The webhook arriving late changes nothing and is acknowledged.
    const late = await deliver(await lastHook(orderId, "invoice.statusChanged"));
    expect(late.status).toBe(200);
    expect((await ledgerOf(sub)).notifications.filter((n) => n.type === "order.paid")).toHaveLength(
      1,
    );
  });

  it("a lock the worker gave up on that lands at the service later: the alarm's read shows the service's currency and address (sim seed 100279)", async () => {
    const { id, orderId, snapshot: locked } = await lockedCheckout("100.00", "late-lock");
    expect(locked.attempt.payment?.cryptoCurrencyCode).toBe("USDT_TRC20");
    // What an abandoned TRX lock does when the service finally runs it: no webhook, no answer.
    const invoiceId = String((await upstreamInvoice(orderId)).body.data.id);
    const service = await lockAtService(invoiceId, "TRX");
    expect(service.cryptoCurrencyCode).toBe("TRX");
    await reconcileNow(orderStub(id));
    const payment = (await snapshot(id)).attempt.payment!;
    expect([payment.cryptoCurrencyCode, payment.address]).toEqual(["TRX", service.address]);
    expect(payment.amount).toBe(String(service.cryptoAmountExpected));
    await simulate(orderId, "paid");
    await reconcileNow(orderStub(id));
    const l = await ledgerOf(orderId.slice(3));
    expect(l.state).toBe("paid");
    expect(l.payments.map((p) => p.cryptoCode)).toEqual(["TRX"]);
  });

  it("a payment read while the currency list was unreadable is read again after it is final, until its currency is named", async () => {
    const sub = uniqueSub("unnamed");
    const opened = await postJson(
      "/v1/checkouts",
      { token: await token({ sub, amount: "20.00" }) },
      { "cf-connecting-ip": uniqueIp() },
    );
    const { data } = (await opened.json()) as { data: CheckoutSnapshot };
    const orderId = data.attempt.orderId;
    const stub = orderStub(data.id);
    const invoiceId = (await upstreamInvoice(orderId)).body.data.id as string;
    // The payer chooses TRX on the service's page and pays: the order learns the code only
    // from a read, and names it from the live currency list.
    const chose = await fetch(`${env.UPSTREAM_BASE_URL}/pay/${invoiceId}/currency`, {
      method: "POST",
      body: new URLSearchParams({ cryptoCurrencyCode: "TRX" }),
      redirect: "manual",
    });
    expect(chose.status).toBe(303);
    expect((await simulate(orderId, "paid")).status).toBe(200);
    const realNow = catalogClock.now;
    try {
      // Every copy of the list is past its period and the service's list fails meanwhile.
      catalogClock.now = () => Date.now() + 100 * CATALOG_TTL_MS;
      await clearCatalogMemory();
      await fault({ path: "/currencies", method: "GET", mode: "status", status: 503, times: 100 });
      for (const d of await deliveriesFor(orderId)) expect((await deliver(d)).status).toBe(200);
      const unnamed = await snapshot(data.id);
      expect([unnamed.orderState, unnamed.attempt.status]).toEqual(["paid", "paid"]);
      expect(unnamed.attempt.payment?.cryptoCurrencyCode ?? null).toBeNull();
      // Paid, yet still followed: its currency is not named yet.
      expect((await followed(stub)).find((r) => r.kind === "invoice")?.next_read_at).not.toBeNull();
      await clearFaults();
      // The list's failure is reused for CATALOG_FAILURE_TTL_MS (issue 20): past it, asked again.
      catalogClock.now = () => Date.now() + 100 * CATALOG_TTL_MS + CATALOG_FAILURE_TTL_MS + 1;
      await reconcileNow(stub);
    } finally {
      catalogClock.now = realNow;
    }
    const named = await snapshot(data.id);
    expect(named.attempt.payment).toMatchObject({ cryptoCurrencyCode: "TRX", decimalPlaces: 6 });
    expect(named.orderState).toBe("paid");
    // Named: the paid invoice is no longer read.
    expect((await followed(stub)).find((r) => r.kind === "invoice")?.next_read_at).toBeNull();
  });

  it("a read with nothing new appends no event; a shopper watching brings the next read within 10 s", async () => {
    const { id } = await lockedCheckout("100.00", "conv");
    const stub = orderStub(id);
    const seq = (await snapshot(id)).seq;
    await reconcileNow(stub);
    expect((await snapshot(id)).seq).toBe(seq);
    const [row] = await followed(stub);
    // Unwatched, the gap after an unchanged read grows beyond the watched bound.
    expect(row!.next_read_at! - Date.now()).toBeGreaterThan(WATCHED_READ_MS);
    const controller = new AbortController();
    const stream = await worker(`/v1/checkouts/${id}/events`, { signal: controller.signal });
    expect(stream.status).toBe(200);
    const [watched] = await followed(stub);
    expect(watched!.next_read_at! - Date.now()).toBeLessThanOrEqual(WATCHED_READ_MS);
    controller.abort();
    await stream.body?.cancel().catch(() => {});
  });

  it("a 429 from the service defers the next read past its msBeforeNext and changes nothing", async () => {
    const { sub, id, orderId } = await lockedCheckout("100.00", "conv");
    await simulate(orderId, "paid");
    const stub = orderStub(id);
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "status",
      status: 429,
      msBeforeNext: 120_000,
      scope: orderId,
    });
    const before = Date.now();
    await reconcileNow(stub);
    const [row] = await followed(stub);
    expect(row!.next_read_at!).toBeGreaterThanOrEqual(before + 120_000);
    expect((await ledgerOf(sub)).state).toBe("unpaid");
    // The 429 paused the whole deployment's reconciliation, not only this object's.
    const paused = await deploymentBudget().status();
    expect(paused.pausedUntil).toBeGreaterThan(before + 30_000);
    // Once the service serves again (the pause over), the next pass converges.
    await forgetBudget();
    await reconcileNow(stub);
    expect((await ledgerOf(sub)).state).toBe("paid");
  });

  it("top-up completed at the service without a webhook converges through the alarm", async () => {
    const sub = uniqueSub("convdep3");
    const data = await completedTopUp(sub);
    await reconcileNow(env.DEPOSITS.get(env.DEPOSITS.idFromName(data.id)));
    const view = (
      (await (await worker(`/v1/deposits/${data.id}`)).json()) as {
        data: DepositSnapshot;
      }
    ).data;
    expect([view.status, view.settlement?.received]).toEqual(["completed", "50"]);
  });
});
