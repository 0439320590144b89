/**
 * The isolate's gate over the upstream budget (`worker/core/budget/gate.ts`), against a scripted
 * budget: how long each priority waits for a call before it is refused.
 */
import { describe, expect, it } from "vitest";
import type { BudgetRpc, Lease, LeaseRequest } from "../../worker/core/budget/budget-rpc.ts";
import { budgetGate, forgetLeases, MAX_WAIT_MS } from "../../worker/core/budget/gate.ts";
import { SEND_MARGIN_MS } from "../../worker/core/budget/window.ts";
import { UpstreamError } from "../../worker/service/errors.ts";
import { GATE_REFUSAL } from "../../worker/service/transport.ts";

/** A budget that answers `leases` in turn (retry times relative to the ask), then grants one. */
function scripted(leases: { granted: number; retryInMs: number; sendInMs?: number }[]) {
  let asked = 0;
  const budget = {
    async lease(): Promise<Lease> {
      const next = leases[asked++] ?? { granted: 1, retryInMs: 0 };
      const now = Date.now();
      return {
        granted: next.granted,
        sendFrom: next.sendInMs ? now + next.sendInMs : 0,
        spendUntil: now + (next.sendInMs ?? 0) + 500,
        retryAt: next.retryInMs === 0 ? 0 : now + next.retryInMs,
      };
    },
    async rateLimited() {},
  };
  return { budget: budget as unknown as BudgetRpc, asked: () => asked };
}

/** A fresh reconciliation gate over `budget` (10 a second) that records its waits. */
function reconcileGate(budget: BudgetRpc) {
  forgetLeases();
  const slept: number[] = [];
  const gate = budgetGate(
    () => budget,
    `gate-${crypto.randomUUID()}`,
    "reconcile",
    10,
    async (ms) => {
      slept.push(ms);
    },
  );
  return { gate, slept };
}

describe("upstream budget gate", () => {
  it("a reconciliation call asked in a window's last milliseconds waits for the next window instead of being refused", async () => {
    const { budget, asked } = scripted([{ granted: 0, retryInMs: SEND_MARGIN_MS }]);
    const { gate, slept } = reconcileGate(budget);
    await gate.admit(Date.now() + 5_000);
    expect(asked()).toBe(2);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeLessThanOrEqual(MAX_WAIT_MS.reconcile);
  });

  it("a reconciliation call the budget has no call for until later is refused at once with its retry time (it holds its object's lane)", async () => {
    const { budget } = scripted([{ granted: 0, retryInMs: 400 }]);
    const { gate, slept } = reconcileGate(budget);
    const refused = await gate.admit(Date.now() + 5_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UpstreamError);
    expect((refused as UpstreamError).code).toBe(GATE_REFUSAL);
    expect((refused as UpstreamError).retryAfterMs).toBeGreaterThan(MAX_WAIT_MS.reconcile);
    expect(slept).toEqual([]);
  });

  it("a shopper reserved a later window sleeps until it opens and is let through without asking again; a shopper the budget refuses is refused at once", async () => {
    forgetLeases();
    const { budget, asked } = scripted([{ granted: 1, retryInMs: 0, sendInMs: 700 }]);
    const slept: number[] = [];
    const gate = budgetGate(
      () => budget,
      `gate-${crypto.randomUUID()}`,
      "interactive",
      10,
      async (ms) => {
        slept.push(ms);
      },
    );
    await gate.admit(Date.now() + 15_000);
    expect(asked()).toBe(1);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(600);
    // No window free before the deadline (or within the horizon): no waiting in the gate.
    const refusing = scripted([{ granted: 0, retryInMs: 400 }]);
    const shopper = budgetGate(
      () => refusing.budget,
      `gate-${crypto.randomUUID()}`,
      "interactive",
      10,
    );
    const refused = await shopper.admit(Date.now() + 15_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect((refused as UpstreamError).code).toBe(GATE_REFUSAL);
    expect(refusing.asked()).toBe(1);
  });
});

/** A budget that records each lease asked and answers it with `answer` (or throws it). */
function recording(answer: (now: number) => Lease | Error) {
  const asks: LeaseRequest[] = [];
  const budget = {
    async lease(input: LeaseRequest): Promise<Lease> {
      asks.push(input);
      const lease = answer(Date.now());
      if (lease instanceof Error) throw lease;
      return lease;
    },
    async rateLimited() {},
  };
  return { budget: budget as unknown as BudgetRpc, asks };
}

const shopperGate = (budget: BudgetRpc) => {
  forgetLeases();
  return budgetGate(() => budget, `gate-${crypto.randomUUID()}`, "interactive", 10);
};

describe("a lease asked ahead of the call (prefetch)", () => {
  const grantNow = (calls: number) => (now: number) => ({
    granted: calls,
    sendFrom: 0,
    spendUntil: now + 500,
    retryAt: 0,
  });

  it("the call that follows takes the prefetched lease: the budget is asked once, and never for a reservation", async () => {
    const { budget, asks } = recording(grantNow(1));
    const gate = shopperGate(budget);
    const before = Date.now();
    gate.prefetch();
    gate.prefetch(); // one ask in flight is enough
    await gate.admit(Date.now() + 15_000);
    expect(asks).toHaveLength(1);
    // A deadline no later than the ask: this window's calls or none (`window.ts` reserves no window).
    expect(asks[0]?.deadline).toBeLessThanOrEqual(Date.now());
    expect(asks[0]?.deadline).toBeGreaterThanOrEqual(before);
  });

  it("asks nothing while a lease of this window is held", async () => {
    const { budget, asks } = recording(grantNow(2));
    const gate = shopperGate(budget);
    await gate.admit(Date.now() + 15_000); // leases 2, spends 1
    gate.prefetch();
    await gate.admit(Date.now() + 15_000); // the second call of that lease
    expect(asks).toHaveLength(1);
  });

  it("a failed or empty prefetch is not a refusal: the call asks again and is granted", async () => {
    let n = 0;
    const { budget, asks } = recording((now) =>
      n++ === 0 ? new Error("budget unreachable") : grantNow(1)(now),
    );
    const gate = shopperGate(budget);
    gate.prefetch();
    await gate.admit(Date.now() + 15_000);
    expect(asks).toHaveLength(2);
    let m = 0;
    const empty = recording((now) =>
      m++ === 0 ? { granted: 0, sendFrom: 0, spendUntil: 0, retryAt: now + 300 } : grantNow(1)(now),
    );
    const other = shopperGate(empty.budget);
    other.prefetch();
    await other.admit(Date.now() + 15_000);
    expect(empty.asks).toHaveLength(2);
  });

  it("two leases of one window held at once add up: neither's calls are lost", async () => {
    const spendUntil = Date.now() + 800;
    const { budget, asks } = recording(() => ({ granted: 2, sendFrom: 0, spendUntil, retryAt: 0 }));
    const gate = shopperGate(budget);
    // Two calls at once, nothing held: both ask, each lease gives 2, each call spends 1.
    await Promise.all([gate.admit(Date.now() + 15_000), gate.admit(Date.now() + 15_000)]);
    expect(asks).toHaveLength(2);
    // The two calls left (one of each lease) are spent without asking again.
    await gate.admit(Date.now() + 15_000);
    await gate.admit(Date.now() + 15_000);
    expect(asks).toHaveLength(2);
    await gate.admit(Date.now() + 15_000);
    expect(asks).toHaveLength(3);
  });
});
