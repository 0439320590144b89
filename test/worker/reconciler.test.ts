/**
 * Reconciliation in batches (`worker/core/reconciler/`): objects register what they follow with the
 * account's one reconciler, which reads the open ones from the list endpoints and hands an
 * object only what is new; a single `GET` only for an object that left the open lists; its
 * table survives a restart. Sweeps are run on demand (`sweepNow`: "their time came").
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { CheckoutSnapshot, PayoutView } from "../../packages/contract/src/http-api.ts";
import { BudgetObject, MAX_LEASE } from "../../worker/core/budget/budget-object.ts";
import type { Lease } from "../../worker/core/budget/budget-rpc.ts";
import { forgetLeases } from "../../worker/core/budget/gate.ts";
import { WINDOW_MS } from "../../worker/core/budget/window.ts";
import { ReconcilerObject as ShippedReconcilerObject } from "../../worker/core/reconciler/reconciler-object.ts";
import type { SweepReport } from "../../worker/core/reconciler/reconciler-rpc.ts";
import type { Env } from "../../worker/edge/env.ts";
import { payoutStub } from "../../worker/payout/payout-stub.ts";
import { expectedFault } from "../expected-faults.ts";
import { type OrderObject, ReconcilerObject } from "../support/worker-entry.ts";
import {
  deliver,
  deliveriesFor,
  deploymentReconciler,
  forgetBudget,
  merchant,
  postJson,
  sandbox,
  simulate,
  token,
  uniqueIp,
  uniqueSub,
  upstreamInvoice,
  worker,
} from "./helpers.ts";
import { lockedCheckout, SHOPPER_TRON as TRON } from "./orders.ts";
import { readFrames } from "./sse-frames.ts";

const reconciler = deploymentReconciler;

/** The service's id of the invoice with `orderId` (read before the part under test). */
async function invoiceIdOf(orderId: string): Promise<string> {
  return String((await upstreamInvoice(orderId)).body.data.id);
}

/**
 * Moves a top-up's deposit or a payout's withdrawal at the sandbox (`path`, e.g.
 * `deposits/<orderId>`) and delivers the newest `event` webhook of `orderId` (answered 200).
 */
async function moveAndDeliver(path: string, orderId: string, event: string): Promise<void> {
  const moved = await sandbox(`/sandbox/${path}/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action: "processing" }),
  });
  expect(moved.status).toBe(200);
  const delivery = (await deliveriesFor(orderId)).filter((d) => d.event === event).at(-1)!;
  expect((await deliver(delivery)).status).toBe(200);
}

/**
 * Waits until `stub`'s object has told the reconciler what it learned: its registrations and
 * its inline delivery of the index feed, which carries the facts of a change that only moved an
 * open object's facts (taken by the reconciler's next sweep, `core/events/facts-feed.ts`).
 */
async function told(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, (o: unknown) =>
    (o as { registrationsSettled(): Promise<void> }).registrationsSettled(),
  );
}

/** The next sweep hands nothing: the list page shows the very record the object has. */
async function expectNothingHanded(): Promise<void> {
  const report = await reconciler().sweepNow();
  expect(report.handed).toBe(0);
  expect(report.unchanged).toBeGreaterThanOrEqual(1);
}

/** The service's GETs since `since`: list pages, and single reads of `invoiceId`. */
async function readsSince(since: string, invoiceId: string) {
  const { body } = await sandbox<{ data: { path: string; query: Record<string, string> }[] }>(
    `/sandbox/requests?method=GET&since=${encodeURIComponent(since)}`,
  );
  return {
    pages: body.data.filter((r) => r.path === "/invoice/list").length,
    singles: body.data.filter((r) => r.path === "/invoice" && r.query.id === invoiceId).length,
  };
}

/** The order object's schedule of one followed invoice, and the reconciler's copy of it. */
async function schedules(checkoutId: string, invoiceId: string) {
  const order = env.ORDERS.get(env.ORDERS.idFromName(checkoutId));
  const own = await runInDurableObject(order, (_o, state: DurableObjectState) =>
    state.storage.sql
      .exec("SELECT next_read_at, gap_ms, failures FROM upstream_objects WHERE id = ?", invoiceId)
      .one(),
  );
  const tracked = await runInDurableObject(reconciler(), (_o, state: DurableObjectState) =>
    state.storage.sql.exec("SELECT next_read_at FROM tracked WHERE id = ?", invoiceId).one(),
  );
  return {
    order,
    nextReadAt: Number(own.next_read_at),
    gapMs: Number(own.gap_ms),
    failures: Number(own.failures),
    trackedAt: Number(tracked.next_read_at),
  };
}

/** The budget's refusal of a reconciliation call, and when it answered (by its own clock). */
type Refusal = Lease & { answeredAt: number };

/**
 * Runs `during` while the deployment's shoppers take every call of the first two windows in
 * which the marked calls `during` starts ask the budget for reconciliation (the second too:
 * refused in a window's last moments, a gate waits for the next window and asks again), so
 * they are refused there however late they come (a busy machine may start a sweep or a read
 * seconds after the test asked for it; filling the window the test was in would then refuse
 * nothing). Until then every other reconciliation call is refused too, so none holds a lease of
 * this isolate that a marked call could spend without asking. Marked calls ask with the rate
 * `during` is given (one less than the deployment's; the budget is given the deployment's).
 * Answers what `during` answered and the budget's last refusal of a marked call (the one its
 * caller was deferred by).
 */
async function whileShoppersTakeTheWindowsOf<T>(
  during: (markedRate: number) => Promise<T>,
): Promise<{ value: T; refusal: Refusal | null }> {
  const rate = Number(env.UPSTREAM_MAX_RPS);
  const marked = rate - 1;
  let refusal: Refusal | null = null;
  let firstWindow: number | null = null;
  let filledWindow = -1;
  // On the class: RPC calls the budget object's prototype methods, never an instance's own.
  const lease = BudgetObject.prototype.lease;
  const spy = vi.spyOn(BudgetObject.prototype, "lease").mockImplementation(async function (
    this: BudgetObject,
    input,
  ) {
    if (input.priority !== "reconcile") return lease.call(this, input);
    const asked = { ...input, ratePerSecond: rate };
    const window = Math.floor(Date.now() / WINDOW_MS);
    if (input.ratePerSecond === marked) firstWindow ??= window;
    if (firstWindow !== null && window > firstWindow + 1) return lease.call(this, asked);
    // The shoppers' leases and this one are answered in one turn of the object: one window.
    for (let i = 0; filledWindow !== window && i < 100; i += 1) {
      const shoppers = await lease.call(this, {
        priority: "interactive",
        want: MAX_LEASE,
        ratePerSecond: rate,
      });
      if (shoppers.granted < MAX_LEASE) filledWindow = window;
    }
    const answer = await lease.call(this, asked);
    if (input.ratePerSecond === marked && answer.granted === 0)
      refusal = { ...answer, answeredAt: Date.now() };
    return answer;
  });
  forgetLeases();
  try {
    return { value: await during(marked), refusal };
  } finally {
    spy.mockRestore();
  }
}

/** `hosted`'s own configuration, with `UPSTREAM_MAX_RPS` replaced. */
function withRate(hosted: { env: Env }, perSecond: number): Env {
  return { ...hosted.env, UPSTREAM_MAX_RPS: String(perSecond) };
}

/**
 * Sweeps now, this sweep's upstream calls asking the budget with `perSecond` (the sweep reads
 * its configuration before its first await; the reconciler's own alarm sweeps stay unmarked).
 */
async function sweepAskingWith(perSecond: number): Promise<SweepReport> {
  const sweepNow = ReconcilerObject.prototype.sweepNow;
  const spy = vi.spyOn(ReconcilerObject.prototype, "sweepNow").mockImplementation(function (
    this: ReconcilerObject,
  ) {
    const hosted = this as unknown as { env: Env };
    const own = hosted.env;
    hosted.env = withRate(hosted, perSecond);
    try {
      return sweepNow.call(this);
    } finally {
      hosted.env = own;
    }
  });
  try {
    return await reconciler().sweepNow();
  } finally {
    spy.mockRestore();
  }
}

/**
 * Runs `during` while the reconciler's alarm (its own sweeps) waits: an alarm the runtime fires
 * meanwhile runs once `during` has ended.
 */
async function whileReconcilerAlarmsWait<T>(during: () => Promise<T>): Promise<T> {
  const alarm = ShippedReconcilerObject.prototype.alarm;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const spy = vi
    .spyOn(ShippedReconcilerObject.prototype, "alarm")
    .mockImplementation(async function (this: ShippedReconcilerObject) {
      await released;
      return alarm.call(this);
    });
  try {
    return await during();
  } finally {
    spy.mockRestore();
    release();
  }
}

/**
 * Asks `order` to read `target` once, its upstream calls asking the budget with `perSecond`;
 * answers the object's clock when the read returned.
 */
async function readAskingWith(
  order: Awaited<ReturnType<typeof schedules>>["order"],
  target: Parameters<OrderObject["reconcileRead"]>[0],
  perSecond: number,
): Promise<number> {
  const hostedIn = (object: unknown) => object as { env: Env };
  const own = await runInDurableObject(order, (object) => {
    const hosted = hostedIn(object);
    const before = hosted.env;
    hosted.env = withRate(hosted, perSecond);
    return before;
  });
  try {
    await order.reconcileRead(target);
    return await runInDurableObject(order, () => Date.now());
  } finally {
    await runInDurableObject(order, (object) => {
      hostedIn(object).env = own;
    });
  }
}

describe("reconciler", () => {
  it("a payment at the service reaches a watching widget through a list page, with no webhook and no single read", async () => {
    const { id, orderId } = await lockedCheckout("30.00", "rec");
    const invoiceId = await invoiceIdOf(orderId);
    const stream = await worker(`/v1/checkouts/${id}/events`);
    const reading = readFrames<CheckoutSnapshot>(stream, 2);
    // Registered as watched: due within the watched cadence.
    expect((await reconciler().tracked()).rows).toBeGreaterThan(0);
    // Money arrives; the invoice stays open (partially paid). No webhook is delivered.
    await simulate(orderId, "partial", "5");
    const since = new Date().toISOString();
    const report = await reconciler().sweepNow();
    expect(report.handed).toBeGreaterThanOrEqual(1);
    const { frames } = await reading;
    const last = frames.at(-1)!.data;
    expect(last.attempt.status).toBe("partially_paid");
    const reads = await readsSince(since, invoiceId);
    expect(reads.pages).toBeGreaterThanOrEqual(1);
    expect(reads.singles).toBe(0);
  });

  it("hands an object only what is new: a second sweep with nothing changed hands nothing", async () => {
    const { id } = await lockedCheckout("31.00", "rec");
    await reconciler().sweepNow();
    const before = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    const again = await reconciler().sweepNow();
    expect(again.handed).toBe(0);
    expect(again.unchanged).toBeGreaterThanOrEqual(1);
    const after = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(after.data.seq).toBe(before.data.seq);
  });

  it("a record a webhook already brought is not handed again by the next sweep: the list page shows what the object has", async () => {
    const { id, orderId } = await lockedCheckout("32.00", "rec");
    await reconciler().sweepNow(); // every object settled: only what follows is new
    await simulate(orderId, "partial", "5");
    const delivery = (await deliveriesFor(orderId)).at(-1)!;
    expect((await deliver(delivery)).status).toBe(200);
    const applied = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(applied.data.attempt.status).toBe("partially_paid");
    await told(env.ORDERS.get(env.ORDERS.idFromName(id)));
    // The page shows the same invoice the webhook carried: nothing to hand (was one hand-over,
    // and one more apply in the object, per webhook).
    const report = await reconciler().sweepNow();
    expect(report.handed).toBe(0);
    expect(report.unchanged).toBeGreaterThanOrEqual(1);
    const after = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(after.data.seq).toBe(applied.data.seq);
    // What the object has not seen still reaches it: the rest paid at the service (the paid
    // invoice left the open lists: one single read).
    expect((await simulate(orderId, "paid")).status).toBe(200);
    const next = await reconciler().sweepNow();
    expect(next.handed + next.singleReads).toBeGreaterThanOrEqual(1);
    const paid = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(paid.data.attempt.status).toBe("paid");
  });

  it("a deposit a webhook already brought is not handed again by the next sweep (the top-up registers its record's fingerprint as orders do)", async () => {
    const sub = uniqueSub("rec-dep");
    const orderId = `cc-${sub}`;
    const opened = await postJson(
      "/v1/deposits",
      {
        token: await token({
          sub,
          mode: "deposit",
          customerId: "cust-9",
          cryptoCurrencyCode: "TRX",
        }),
      },
      { "cf-connecting-ip": uniqueIp() },
    );
    expect(opened.status).toBe(201);
    const topUpId = ((await opened.json()) as { data: { id: string } }).data.id;
    await reconciler().sweepNow(); // every object settled: only what follows is new
    await moveAndDeliver(
      `deposits/${encodeURIComponent(orderId)}`,
      orderId,
      "deposit.statusChanged",
    );
    const view = await (await worker(`/v1/deposits/${topUpId}`)).json();
    expect((view as { data: { status: string } }).data.status).toBe("processing");
    await told(env.DEPOSITS.get(env.DEPOSITS.idFromName(topUpId)));
    // The deposit list shows the very deposit the webhook carried: nothing to hand (was one
    // hand-over per deposit webhook, and one more apply).
    await expectNothingHanded();
  });

  it("a withdrawal a webhook already brought is not handed again by the next sweep (the payout registers its record's fingerprint as orders do)", async () => {
    const orderId = uniqueSub("rec-pay");
    const quoted = await merchant("/v1/payouts", {
      method: "POST",
      body: JSON.stringify({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "20" }),
    });
    expect(quoted.status).toBe(201);
    const committed = await merchant(`/v1/payouts/${encodeURIComponent(orderId)}/commit`, {
      method: "POST",
    });
    const withdrawalId = ((await committed.json()) as { data: PayoutView }).data.withdrawal!.id;
    await reconciler().sweepNow(); // every object settled: only what follows is new
    await moveAndDeliver(`withdrawals/${withdrawalId}`, orderId, "withdrawal.statusChanged");
    const view = (await (await merchant(`/v1/payouts/${orderId}`)).json()) as { data: PayoutView };
    expect(view.data.status).toBe("processing");
    await told(payoutStub(env as Env, orderId));
    // The withdrawal list shows the very withdrawal the webhook carried: nothing to hand.
    await expectNothingHanded();
  });

  it("a sweep the budget refuses mid-walk waits for the budget's next window and reads on, instead of deferring to a later sweep that starts over at page 1", async () => {
    const { id, orderId } = await lockedCheckout("36.00", "rec");
    // The reconciler's own alarm sweeps wait until this one ends: one of them finding the
    // payment first (a busy machine stretches this sweep's wait) would leave it nothing to hand.
    const { value: report, refusal } = await whileReconcilerAlarmsWait(async () => {
      await simulate(orderId, "partial", "5");
      // The deployment's shoppers take every call of the window the walk asks in: its first
      // page is refused by the budget (not by the service).
      return whileShoppersTakeTheWindowsOf(sweepAskingWith);
    });
    expect(refusal?.granted).toBe(0);
    expect(report.budgetWaits).toBeGreaterThanOrEqual(1);
    expect(report.deferred).toBe(false);
    expect(report.handed).toBeGreaterThanOrEqual(1);
    const view = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(view.data.attempt.status).toBe("partially_paid");
  });

  it("an invoice that left the open lists (expired) is read once with a single GET, and still followed for late payments", async () => {
    const { id, orderId } = await lockedCheckout("32.00", "rec");
    const invoiceId = await invoiceIdOf(orderId);
    await simulate(orderId, "expire");
    const since = new Date().toISOString();
    // Other tests' objects are due too (at most 20 single reads a sweep): sweep until ours ran.
    let singleReads = 0;
    for (let i = 0; i < 20 && (await readsSince(since, invoiceId)).singles === 0; i += 1)
      singleReads += (await reconciler().sweepNow()).singleReads;
    expect(singleReads).toBeGreaterThanOrEqual(1);
    expect((await readsSince(since, invoiceId)).singles).toBe(1);
    const view = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(view.data.attempt.status).toBe("expired");
    // Still tracked: an expired invoice is read until expiry + 24 h.
    const tracked = await runInDurableObject(reconciler(), (_o, state: DurableObjectState) =>
      state.storage.sql.exec("SELECT COUNT(*) AS n FROM tracked WHERE id = ?", invoiceId).one(),
    );
    expect(Number(tracked.n)).toBe(1);
  });

  it("a single read the budget has no call for waits for the budget's next window, not a doubled gap, and then reads the expired invoice", async () => {
    const { id, orderId } = await lockedCheckout("34.00", "rec");
    const invoiceId = await invoiceIdOf(orderId);
    // Expired at the service; its webhook is never delivered (lost).
    await simulate(orderId, "expire");
    const before = await schedules(id, invoiceId);
    // The reconciler found it in no open list: its object reads it with one GET.
    const { value: returned, refusal } = await whileShoppersTakeTheWindowsOf((rate) =>
      readAskingWith(before.order, { kind: "invoice", id: invoiceId }, rate),
    );
    const deferred = await schedules(id, invoiceId);
    // Refused by the budget, not by the service: no failure, the gap kept, and the read is due
    // again when the budget said a window has room (here and at the reconciler), not 30 s
    // later: never before that time, and late by at most the refusal's way back to the object
    // (the gate turns the budget's time into a wait by its own clock, the read back into a time;
    // a refusal back after its window opened is retried 1 ms later).
    if (refusal === null) throw new Error("the budget refused no reconciliation call");
    expect(deferred.failures).toBe(before.failures);
    expect(deferred.gapMs).toBe(before.gapMs);
    expect(deferred.nextReadAt).toBeGreaterThanOrEqual(refusal.retryAt);
    expect(deferred.nextReadAt - refusal.retryAt).toBeLessThanOrEqual(
      returned - refusal.answeredAt + 1,
    );
    expect(deferred.trackedAt).toBe(deferred.nextReadAt);
    const unread = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(unread.data.attempt.status).toBe("created");
    // The next window: the budget has a call, and the read converges.
    await forgetBudget();
    await before.order.reconcileRead({ kind: "invoice", id: invoiceId });
    const view = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(view.data.attempt.status).toBe("expired");
  });

  it("an object whose registration fails while its configuration cannot be read still arms its alarm: the failure is logged without fields, never thrown", async () => {
    const { id } = await lockedCheckout("35.00", "rec");
    const order = env.ORDERS.get(env.ORDERS.idFromName(id));
    const printed: string[] = [];
    const print = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      printed.push(String(line));
    });
    const outcome = await runInDurableObject(order, async (instance, state) => {
      const object = instance as unknown as {
        env: Env;
        host: { arm(): Promise<void> };
        registrationsSettled(): Promise<void>;
      };
      const real = object.env;
      // A read brought sooner than the reconciler was told (which it must hear of by RPC, not
      // through the feed), and a configuration that fails to parse.
      state.storage.sql.exec(
        "UPDATE upstream_objects SET next_read_at = next_read_at - 1 WHERE next_read_at IS NOT NULL",
      );
      object.env = { ...real, API_KEY: "" };
      try {
        // The object's one arm() is its host's (`core/events/object-host.ts`).
        await object.host.arm();
        // The registration runs after the alarm is armed (the answer never waits for it).
        await object.registrationsSettled();
        return "armed";
      } catch (error) {
        return `threw ${String(error)}`;
      } finally {
        object.env = real;
      }
    }).finally(() => print.mockRestore());
    expect(outcome).toBe("armed");
    const warned = printed.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warned.filter((l) => l.event === "reconciler.register_failed")).toEqual([
      { level: "warn", event: "reconciler.register_failed", at: expect.any(String) },
    ]);
  });

  it("survives a restart: its table is durable, the next sweep carries on", async () => {
    const { orderId } = await lockedCheckout("33.00", "rec");
    const before = (await reconciler().tracked()).rows;
    await runInDurableObject(reconciler(), (_o, state: DurableObjectState) => {
      state.abort(expectedFault("restart"));
    }).catch(() => {});
    expect((await reconciler().tracked()).rows).toBe(before);
    await simulate(orderId, "processing");
    const report = await reconciler().sweepNow();
    expect(report.handed).toBeGreaterThanOrEqual(1);
  });
});
