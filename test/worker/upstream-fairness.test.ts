/**
 * Fairness in the deployment's one upstream budget (`worker/core/budget/shares.ts`, lanes in
 * `window.ts`), with the real `BudgetObject` and the real routes: every call names its lane
 * and client; a client re-locking alternately from many checkouts holds no more than its share
 * while a victim waits, and the victim's create and first lock are granted within one budget
 * window of asking; the merchant's calls and shoppers' opens go ahead of re-locks; a client
 * re-locking across its checkouts meets 429 `rate_limited` + Retry-After (the per-client lock
 * limit, or its budget share), an honest shopper switching a few times never does.
 *
 * Counted in grants and budget windows, never in wall-clock latency.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { BudgetRpc, Priority } from "../../worker/core/budget/budget-rpc.ts";
import { budgetGate, forgetLeases } from "../../worker/core/budget/gate.ts";
import { deploymentGates } from "../../worker/core/budget/install.ts";
import { shareOf } from "../../worker/core/budget/shares.ts";
import { shopperRate, WINDOW_MS, windowOf } from "../../worker/core/budget/window.ts";
import { installUpstreamGates } from "../../worker/core/config/upstream.ts";
import { budgetStub } from "../../worker/core/objects/stubs.ts";
import type { Env } from "../../worker/edge/env.ts";
import { clientKey } from "../../worker/edge/http/client-key.ts";
import { LOCKS_PER_CLIENT } from "../../worker/edge/http/limits.ts";
import { LOCKS_PER_MINUTE } from "../../worker/order/lock-throttle.ts";
import { UpstreamError } from "../../worker/service/errors.ts";
import { overShares } from "../sim/fair-shares.ts";
import type { BudgetObject } from "../support/worker-entry.ts";
import {
  deploymentBudget,
  merchant,
  openCheckout,
  postJson,
  testConfig,
  uniqueIp,
  uniqueSub,
  upstreamRequests,
} from "./helpers.ts";
import type { Snap } from "./orders.ts";

const RATE = 10;
const LOCK_PATH = "/x-sandbox/invoice/lock-currency";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(() => {
  // Back to the gates the worker's entry installed (`worker/core/budget/install.ts`).
  installUpstreamGates(deploymentGates);
});

/** A lock from `ip`; status, Retry-After and body. */
async function lockFrom(ip: string, id: string, cryptoCurrencyCode: string) {
  const res = await postJson(
    `/v1/checkouts/${id}/currency`,
    { cryptoCurrencyCode },
    { "cf-connecting-ip": ip },
  );
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: (await res.json()) as Snap,
  };
}

/**
 * A budget object of its own (a fresh key). What it granted is read from its own record
 * (`BudgetObject.clientLeases`, `test/support/worker-entry.ts`): its clock and the window each
 * grant counts in for its client, so a loaded machine that delays an RPC past a window's edge
 * cannot move a grant into another window.
 */
function recordedBudget() {
  const key = `fairness-${crypto.randomUUID()}`;
  const stub = budgetStub(env as unknown as Env, key) as unknown as DurableObjectStub<BudgetObject>;
  const gate = (priority: Priority, client: string) =>
    budgetGate(() => stub as unknown as BudgetRpc, key, priority, RATE, undefined, client);
  return { key, stub, gate, leases: () => stub.clientLeases(0) };
}

/** Waits for the start of the next budget window plus `offset` ms. */
async function nextWindow(offset = 30): Promise<void> {
  await sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + offset);
}

describe("upstream budget: fairness among clients", () => {
  it("through the routes, every call names its lane and client: a create and its first lock open (interactive), a change of currency re-locks (relock), one client across its checkouts, the doctor is the merchant's", async () => {
    const budget = deploymentBudget();
    await budget.asked(); // (forgets what was asked before)
    const ip = uniqueIp();
    const key = await clientKey(ip, testConfig().CHECKOUT_SIGNING_SECRET);
    const first = await openCheckout({ sub: uniqueSub("lane") }, ip);
    const second = await openCheckout({ sub: uniqueSub("lane") }, ip);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await lockFrom(ip, first.body.data.id, "USDT_TRC20")).status).toBe(200);
    expect((await lockFrom(ip, first.body.data.id, "TRX")).status).toBe(200);
    expect((await lockFrom(ip, second.body.data.id, "TRX")).status).toBe(200);
    let seen = await budget.asked();
    const shopper = seen.filter((s) => s.client === key).map((s) => s.priority);
    // The creates and the first lock of each checkout open; the change of currency re-locks.
    expect(shopper.length).toBeGreaterThanOrEqual(3);
    expect(new Set(shopper)).toEqual(new Set(["interactive", "relock"]));
    // Another address is another client.
    const other = uniqueIp();
    expect((await openCheckout({ sub: uniqueSub("lane") }, other)).status).toBe(201);
    const otherKey = await clientKey(other, testConfig().CHECKOUT_SIGNING_SECRET);
    expect(otherKey).not.toBe(key);
    expect((await budget.asked()).some((s) => s.client === otherKey)).toBe(true);
    // The doctor's call to the service is the merchant's lane, and nobody's share.
    expect((await merchant("/v1/doctor")).status).toBe(200);
    seen = await budget.asked();
    expect(seen).toContainEqual({ priority: "merchant" });
    expect(seen.filter((s) => s.client !== undefined)).toEqual([]);
  });

  it("an attacker re-locking alternately from 40 checkouts: while a victim waits the attacker holds no more than its share, and the victim's create and first lock are each granted within one window of asking", {
    timeout: 30_000,
  }, async () => {
    forgetLeases();
    const b = recordedBudget();
    await nextWindow();
    const until = Date.now() + 4 * WINDOW_MS;
    let refusals = 0;
    // Each checkout: lock, (the service answers), lock another currency, … ignoring refusals'
    // Retry-After (it asks again at once).
    const attacker = Array.from({ length: 40 }, async () => {
      const gate = b.gate("relock", "attacker");
      while (Date.now() < until) {
        try {
          await gate.admit(Date.now() + 15_000);
          await sleep(50);
        } catch (error) {
          if (!(error instanceof UpstreamError) || error.status !== 429) throw error;
          refusals += 1;
          await sleep(20);
        }
      }
    });
    // The victim comes in the second window: a create, then its first lock once answered.
    await nextWindow(300);
    for (let step = 0; step < 2; step += 1) {
      await b.gate("interactive", "victim").admit(Date.now() + 15_000);
      await sleep(50);
    }
    await Promise.all(attacker);
    const leases = await b.leases();
    // Each step of the victim: the window its first ask reached the object in, and the window
    // the call it was granted counts in (a reservation's, or the next one for a window's edge).
    const victim: { asked: number; granted: number }[] = [];
    let asked: number | undefined;
    for (const lease of leases.filter((l) => l.client === "victim")) {
      asked ??= windowOf(lease.at);
      if (lease.granted > 0) {
        victim.push({ asked, granted: lease.window });
        asked = undefined;
      }
    }
    expect(victim).toHaveLength(2);
    for (const call of victim) expect(call.granted - call.asked).toBeLessThanOrEqual(WINDOW_MS);
    // The attacker was refused (its share held), never the victim.
    expect(refusals).toBeGreaterThan(0);
    // In each window after one the victim asked in (it is active there), the attacker was
    // granted at most half the shoppers' rate: its equal share with one other client.
    const half = shareOf(shopperRate(RATE), 2);
    const attackerIn = (w: number) =>
      leases
        .filter((l) => l.client === "attacker" && l.granted > 0 && l.window === w)
        .reduce((sum, l) => sum + l.granted, 0);
    for (const call of victim) expect(attackerIn(call.asked + WINDOW_MS)).toBeLessThanOrEqual(half);
    // Grant by grant, while the victim was active the attacker held no more than its share
    // (the simulation's invariant, `test/sim/fair-shares.ts`), and it was contested.
    const { over, contested } = overShares(leases, 0);
    expect(over).toEqual([]);
    expect(contested).toBeGreaterThan(0);
    // Alone, before the victim came, it could take every call nobody else waited for (the
    // current window lends its idle calls to any shopper lane: `window.ts`), never more than
    // the deployment's budget.
    expect(attackerIn(victim[0]!.asked - WINDOW_MS)).toBeLessThanOrEqual(RATE);
  });

  it("the merchant's call and a shopper's open go ahead of 100 waiting re-locks: both granted in this window or the next, a re-lock asked with them waits behind the queue", async () => {
    const b = recordedBudget();
    await nextWindow();
    for (let i = 0; i < 100; i += 1)
      await b.stub.lease({ priority: "relock", want: 1, ratePerSecond: RATE, client: `r-${i}` });
    const now = Date.now();
    const ask = (priority: Priority, client?: string) =>
      b.stub.lease({ priority, want: 1, ratePerSecond: RATE, ...(client ? { client } : {}) });
    const merchantCall = await ask("merchant");
    const open = await ask("interactive", "newcomer");
    const relock = await ask("relock", "other");
    for (const lease of [merchantCall, open]) {
      expect(lease.granted).toBe(1);
      expect(windowOf(lease.sendFrom || now) - windowOf(now)).toBeLessThanOrEqual(WINDOW_MS);
    }
    expect(windowOf(relock.sendFrom) - windowOf(now)).toBeGreaterThanOrEqual(5 * WINDOW_MS);
  });

  it(`one address re-locking across its checkouts meets 429 rate_limited + Retry-After after ${LOCKS_PER_CLIENT} locks a minute (fewer than ${LOCKS_PER_MINUTE} per checkout); another address switching a few times meanwhile never does`, {
    timeout: 60_000,
  }, async () => {
    const attackerIp = uniqueIp();
    const honestIp = uniqueIp();
    const checkouts = await Promise.all(
      Array.from({ length: 5 }, () => openCheckout({ sub: uniqueSub("flood") }, attackerIp)),
    );
    const honest = await openCheckout({ sub: uniqueSub("honest") }, honestIp);
    const before = (await upstreamRequests(LOCK_PATH, "POST")).length;
    const currencies = ["USDT_TRC20", "TRX"];
    let ok = 0;
    let refused: Awaited<ReturnType<typeof lockFrom>> | null = null;
    const honestStatuses: number[] = [];
    for (let round = 0; round < 8 && !refused; round += 1) {
      for (const c of checkouts) {
        const answer = await lockFrom(attackerIp, c.body.data.id, currencies[round % 2]!);
        if (answer.status === 429) {
          refused = answer;
          break;
        }
        expect(answer.status).toBe(200);
        ok += 1;
      }
      // The honest shopper changes its mind now and then.
      if (round < 4)
        honestStatuses.push(
          (await lockFrom(honestIp, honest.body.data.id, currencies[round % 2]!)).status,
        );
    }
    expect(refused).not.toBeNull();
    expect(ok).toBe(LOCKS_PER_CLIENT);
    expect(refused!.body.error?.code).toBe("rate_limited");
    expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(1);
    // No checkout reached its own limit: the limit is the address's, across them.
    expect(ok / checkouts.length).toBeLessThan(LOCKS_PER_MINUTE);
    // The refused lock called nothing: the service saw exactly the locks that were answered.
    const calls = (await upstreamRequests(LOCK_PATH, "POST")).length - before;
    expect(calls).toBe(ok + honestStatuses.length);
    expect(honestStatuses).toEqual([200, 200, 200, 200]);
  });

  it("a client that holds its whole share of the budget: its next change of currency is 429 rate_limited with Retry-After, and calls nothing", {
    timeout: 30_000,
  }, async () => {
    const ip = uniqueIp();
    const key = await clientKey(ip, testConfig().CHECKOUT_SIGNING_SECRET);
    const { body } = await openCheckout({ sub: uniqueSub("share") }, ip);
    expect((await lockFrom(ip, body.data.id, "USDT_TRC20")).status).toBe(200);
    const budget = deploymentBudget();
    const rate = testConfig().UPSTREAM_MAX_RPS;
    let answer: Awaited<ReturnType<typeof lockFrom>> | null = null;
    let calls = 0;
    // Within one window (its held calls free when it ends): tried again if the window turned.
    for (let tries = 0; tries < 3 && answer?.status !== 429; tries += 1) {
      await nextWindow();
      // This client takes everything its share allows (as 80 checkouts re-locking would).
      for (let i = 0; i < 10; i += 1) {
        const lease = await budget.lease({
          priority: "relock",
          want: 100,
          ratePerSecond: rate,
          client: key,
        });
        if (lease.overShare) break;
      }
      const before = (await upstreamRequests(LOCK_PATH, "POST")).length;
      answer = await lockFrom(ip, body.data.id, tries % 2 === 0 ? "TRX" : "USDT_TRC20");
      calls = (await upstreamRequests(LOCK_PATH, "POST")).length - before;
    }
    expect(answer!.status).toBe(429);
    expect(answer!.body.error?.code).toBe("rate_limited");
    expect(Number(answer!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(calls).toBe(0);
  });
});
