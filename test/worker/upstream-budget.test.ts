/**
 * The deployment's one upstream budget (`worker/core/budget/`), with the real `BudgetObject` and a
 * sandbox that plays the service's per-key rate limit (6 requests a second,
 * `limitedSandboxUrl`): reconciliation saturating the budget never turns a shopper's call
 * into a 429 and never makes the service answer one; a 429 any caller meets slows every
 * caller's reconciliation; a burst of calls shares leases instead of asking per call.
 */
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Priority } from "../../worker/core/budget/budget-rpc.ts";
import { budgetGate, forgetLeases } from "../../worker/core/budget/gate.ts";
import { laneCeiling } from "../../worker/core/budget/window.ts";
import { budgetStub } from "../../worker/core/objects/stubs.ts";
import { createUpstreamClient } from "../../worker/service/client.ts";
import { UpstreamError } from "../../worker/service/errors.ts";
import { GATE_REFUSAL } from "../../worker/service/transport.ts";
import { sleep } from "../support/wait.ts";

const LIMITED = inject("limitedSandboxUrl");
const API_KEY = env.API_KEY as string;
const ACCOUNT = env.ACCOUNT_ID as string;
/** Half the limited sandbox's 6 a second: two of our windows may fall in one of its. */
const RATE = 3;

/** A client of the limited sandbox behind budget `key` at `priority` (null: no budget). */
function client(key: string | null, priority: Priority, onLease?: () => void) {
  const gate =
    key === null
      ? undefined
      : budgetGate(
          () => {
            onLease?.();
            return budgetStub(env, key);
          },
          key,
          priority,
          RATE,
        );
  return createUpstreamClient({
    baseUrl: LIMITED,
    apiKey: API_KEY,
    accountId: ACCOUNT,
    ...(priority === "reconcile" ? { maxAttempts: 1, timeoutMs: 5_000 } : {}),
    ...(gate ? { gate } : {}),
  });
}

/** The limited sandbox's API requests since `since`, counted per epoch second. */
async function perSecond(since: number): Promise<{ max: number; statuses: number[] }> {
  const res = await fetch(`${LIMITED}/sandbox/requests?since=${new Date(since).toISOString()}`);
  const { data } = (await res.json()) as { data: { at: string; status: number }[] };
  const counts = new Map<number, number>();
  for (const r of data) {
    const second = Math.floor(Date.parse(r.at) / 1000);
    counts.set(second, (counts.get(second) ?? 0) + 1);
  }
  return { max: Math.max(0, ...counts.values()), statuses: data.map((r) => r.status) };
}

/** Waits for the start of the next second plus `offset` ms (windows are epoch seconds). */
async function nextSecond(offset = 50): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + offset);
}

describe("upstream budget", () => {
  it("reconciliation saturating the budget: every shopper create succeeds, the service never answers 429, calls per second stay within the budget", async () => {
    forgetLeases();
    const key = `budget-test-${crypto.randomUUID()}`;
    await nextSecond();
    const since = Date.now();
    const until = since + 3_500;
    // Past `until` the readers go on only until reconciliation made 3 reads: the assertion is
    // that it is not starved, not how many reads fit in 3.5 s on a loaded machine.
    const starvedAt = since + 15_000;
    let reconciled = 0;
    let serviceRefusals = 0;
    // Four readers that never stop asking: reconciliation with 1,000 objects due.
    const readers = Array.from({ length: 4 }, async () => {
      const reads = client(key, "reconcile");
      while (Date.now() < until || (reconciled < 3 && Date.now() < starvedAt)) {
        try {
          await reads.listInvoices({ limit: 1 });
          reconciled += 1;
        } catch (error) {
          if (!(error instanceof UpstreamError) || error.status !== 429) throw error;
          if (error.code !== GATE_REFUSAL) serviceRefusals += 1;
          await sleep(Math.min(error.retryAfterMs ?? 100, Math.max(1, starvedAt - Date.now())));
        }
      }
    });
    // Meanwhile shoppers open checkouts, two a second.
    const shopper = client(key, "interactive");
    const creates: Promise<unknown>[] = [];
    for (let i = 0; i < 6; i += 1) {
      creates.push(
        shopper.createInvoice({
          orderId: `budget-${crypto.randomUUID().slice(0, 8)}-${i}`,
          fiatCurrencyCode: "USD",
          amount: "10.00",
        }),
      );
      await sleep(500);
    }
    const answers = await Promise.allSettled(creates);
    await Promise.all(readers);
    expect(answers.filter((a) => a.status === "rejected")).toEqual([]);
    expect(serviceRefusals).toBe(0);
    const seen = await perSecond(since);
    expect(seen.statuses).not.toContain(429);
    expect(seen.max).toBeLessThanOrEqual(RATE);
    // Reconciliation did run: it took what shoppers left.
    expect(reconciled).toBeGreaterThanOrEqual(3);
  });

  it("a 429 met by one caller pauses and halves every caller's reconciliation", async () => {
    forgetLeases();
    const key = `budget-test-${crypto.randomUUID()}`;
    // The merchant's own backend spends the key's whole second (no budget of ours): it calls
    // until the service refuses it.
    const outside = createUpstreamClient({
      baseUrl: LIMITED,
      apiKey: API_KEY,
      accountId: ACCOUNT,
      maxAttempts: 1,
    });
    await budgetStub(env, key).status(); // the object is up before the race begins
    await client(key, "reconcile").listFiatCurrencies(); // and this isolate holds a lease
    await nextSecond(20);
    let refused = false;
    for (let i = 0; i < 20 && !refused; i += 1) {
      refused = await outside.listFiatCurrencies().then(
        () => false,
        (e: unknown) => e instanceof UpstreamError && e.status === 429,
      );
    }
    expect(refused).toBe(true);
    // One object's reconciliation read meets the service's 429…
    const first = await client(key, "reconcile")
      .listInvoices({ limit: 1 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(first).toBeInstanceOf(UpstreamError);
    expect((first as UpstreamError).code).toBe("exceptions.rateLimit.exceeded");
    const status = await budgetStub(env, key).status();
    expect(status.pausedUntil).toBeGreaterThan(Date.now());
    expect(status.reconcileCap).toBe(1); // (3 - 1) / 2
    // …and another object's read is held back by the budget, without reaching the service.
    const before = (await perSecond(Date.now() - 5_000)).statuses.length;
    const other = await client(key, "reconcile")
      .listInvoices({ limit: 1 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(other).toBeInstanceOf(UpstreamError);
    expect((other as UpstreamError).code).toBe(GATE_REFUSAL);
    expect((other as UpstreamError).retryAfterMs).toBeGreaterThan(0);
    expect((await perSecond(Date.now() - 5_000)).statuses.length).toBe(before);
    // A shopper's create is not held by the pause (the client honours the service's hint).
    const created = await client(key, "interactive").createInvoice({
      orderId: `budget-${crypto.randomUUID().slice(0, 8)}`,
      fiatCurrencyCode: "USD",
      amount: "10.00",
    });
    expect(created.status).toBe("created");
  });

  it("a burst of calls in one isolate shares leases: fewer round trips than calls", async () => {
    forgetLeases();
    const key = `budget-test-${crypto.randomUUID()}`;
    let leases = 0;
    const reads = client(key, "interactive", () => {
      leases += 1;
    });
    await nextSecond();
    let calls = 0;
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      await reads.listFiatCurrencies();
      calls += 1;
    }
    expect(calls).toBeGreaterThanOrEqual(2 * RATE);
    expect(leases).toBeLessThan(calls);
  });

  it("shoppers the budget cannot serve now are reserved later windows, first come first served, and sent from their window's start", async () => {
    forgetLeases();
    const key = `budget-test-${crypto.randomUUID()}`;
    const stub = budgetStub(env, key);
    await nextSecond();
    const start = Math.floor(Date.now() / 1000) * 1000;
    const first = await stub.lease({ priority: "interactive", want: RATE, ratePerSecond: RATE });
    expect(first).toMatchObject({ granted: RATE, sendFrom: 0 });
    // Shoppers' reservations fill a window up to their lane's ceiling: the rest is the merchant's.
    const room = laneCeiling("interactive", RATE);
    const later: number[] = [];
    for (let k = 1; k <= 2 * RATE; k += 1) {
      const lease = await stub.lease({ priority: "interactive", want: 1, ratePerSecond: RATE });
      expect(lease.granted).toBe(1);
      later.push(lease.sendFrom);
    }
    const windows = later.map((at) => (at - start) / 1000);
    expect(windows).toEqual(later.map((_, i) => 1 + Math.floor(i / room)));
    const booked = Math.ceil((2 * RATE) / room);
    // One whose deadline comes before the next free window is refused at once, with its time.
    const refused = await stub.lease({
      priority: "interactive",
      want: 1,
      ratePerSecond: RATE,
      deadline: start + booked * 1000 + 500,
    });
    expect(refused).toMatchObject({ granted: 0, retryAt: start + (booked + 1) * 1000 });
    expect((await stub.status()).reserved).toEqual(Array(booked).fill(room));
    // Through the gate: six shoppers at once on a fresh budget of 3 a second are let through
    // three in this window, then `room` (2) a window from the next window's start, none refused.
    forgetLeases();
    const gate = budgetGate(
      () => budgetStub(env, `${key}-gate`),
      `${key}-gate`,
      "interactive",
      RATE,
    );
    await nextSecond();
    const opened = Math.floor(Date.now() / 1000) * 1000;
    const admitted = await Promise.all(
      Array.from({ length: 2 * RATE }, () =>
        gate.admit(Date.now() + 15_000).then(() => Math.floor((Date.now() - opened) / 1000)),
      ),
    );
    expect(admitted.sort()).toEqual([0, 0, 0, 1, 1, 2]);
  });
});
