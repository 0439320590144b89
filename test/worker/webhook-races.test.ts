/**
 * Webhook deliveries that race or arrive in any order, through the real order object: the
 * ledger must come out the same whatever the schedule.
 */
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { sleep } from "../support/wait.ts";
import {
  type Delivery,
  deliver,
  deliveriesFor,
  fault,
  faultsLeftFor,
  ledgerOf,
  openCheckout,
  postJson,
  simulate,
  uniqueSub,
  withoutRecord,
  worker,
} from "./helpers.ts";

async function snapshot(id: string): Promise<CheckoutSnapshot> {
  return ((await (await worker(`/v1/checkouts/${id}`)).json()) as { data: CheckoutSnapshot }).data;
}

async function order(amount = "100.00") {
  const sub = uniqueSub("race");
  const { body } = await openCheckout({ sub, amount });
  await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
  return { sub, id: body.data.id, orderId: `cc-${sub}` };
}

/**
 * Delays the answer of `orderId`'s next GET /invoice (the service has read the state already).
 * Scoped: an unspent fault must not slow another test's reads.
 */
const delayNextRead = (ms: number, orderId: string) =>
  fault({
    path: "/invoice",
    method: "GET",
    mode: "timeout-after-create",
    delayMs: ms,
    times: 1,
    scope: orderId,
  });

describe("concurrent deliveries: a slow read never overwrites a newer one", () => {
  it("partial read delayed while paid is applied: the order ends paid with the paid facts", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await order();
    await simulate(orderId, "partial", "40");
    const partial = (await deliveriesFor(orderId)).at(-1)!;
    await delayNextRead(1500, orderId);
    // Without its record, so the worker reads the invoice: that read sees partially_paid(40)
    // and answers 1.5 s late.
    const slow = deliver(await withoutRecord(partial));
    await sleep(300);
    await simulate(orderId, "paid");
    const fast = deliver((await deliveriesFor(orderId)).at(-1)!);
    expect([(await slow).status, (await fast).status]).toEqual([200, 200]);
    // The slow read did happen (its fault is spent): the race this test is about took place.
    expect(await faultsLeftFor(orderId)).toEqual([]);

    const l = await ledgerOf(sub);
    expect(l.state).toBe("paid");
    expect(l.amountPaid).toBe("100.00");
    expect(l.attempts[0]).toMatchObject({ status: "paid", cryptoReceived: "100" });
    expect(l.attempts[0]!.settlement).toMatchObject({ amountPaid: "100" });
    expect((await snapshot(id)).attempt.payment?.remaining).toBe("0");
    expect(l.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
  });

  it("partial read delayed while expired is applied: the attempt stays ended and retry asks the rest", async () => {
    const { sub, id, orderId } = await order();
    await simulate(orderId, "partial", "40");
    const partial = (await deliveriesFor(orderId)).at(-1)!;
    await delayNextRead(1500, orderId);
    // Without its record, so the worker reads the invoice: the read that answers late.
    const slow = deliver(await withoutRecord(partial));
    await sleep(300);
    await simulate(orderId, "expire");
    const fast = deliver((await deliveriesFor(orderId)).at(-1)!);
    expect([(await slow).status, (await fast).status]).toEqual([200, 200]);
    // The slow read did happen (its fault is spent): the race this test is about took place.
    expect(await faultsLeftFor(orderId)).toEqual([]);

    const l = await ledgerOf(sub);
    expect(l.state).toBe("partially_paid");
    expect(l.amountPaid).toBe("40.00");
    expect(l.attempts[0]).toMatchObject({ ended: true, fiatApplied: "40.00" });
    expect((await snapshot(id)).canRetry).toBe(true);
    const retry = await worker(`/v1/checkouts/${id}/retry`, { method: "POST" });
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { data: CheckoutSnapshot }).data.amountDue).toBe("60.00");
  });
});

/** All distinct orders of `items` (items equal by reference count once per position). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  const out: T[][] = [];
  const seen = new Set<T>();
  items.forEach((item, i) => {
    if (seen.has(item)) return;
    seen.add(item);
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) out.push([item, ...tail]);
  });
  return out;
}

describe("every order of a realistic delivery sequence gives one ledger", () => {
  // The service: partial 40 (webhooks `processing`, `partially_paid`), then paid (`paid`); the
  // `partially_paid` one is also delivered twice. A delivery is only made once the service
  // sent it, so each schedule advances the service lazily; the read then sees the newest state.
  const KINDS = ["processing", "partially_paid", "paid", "partially_paid"] as const;
  const schedules = permutations([0, 1, 2, 1]);

  it(`enumerates all ${schedules.length} schedules`, { timeout: 120_000 }, async () => {
    expect(schedules).toHaveLength(12);
    const outcomes = new Set<string>();
    for (const schedule of schedules) {
      const { sub, orderId } = await order();
      let step = 0;
      let sent: Delivery[] = [];
      for (const index of schedule) {
        const needed = KINDS[index] === "paid" ? 2 : 1;
        while (step < needed) {
          await simulate(orderId, step === 0 ? "partial" : "paid", step === 0 ? "40" : undefined);
          step += 1;
          sent = await deliveriesFor(orderId);
        }
        const d = sent.find((x) => JSON.parse(x.body).data.status === KINDS[index])!;
        expect((await deliver(d)).status).toBe(200);
      }
      const l = await ledgerOf(sub);
      const crypto = l.payments.reduce((s, p) => s + Number(p.cryptoAmount), 0);
      const fiat = l.payments.reduce((s, p) => s + Math.round(Number(p.fiatAmount) * 100), 0);
      outcomes.add(
        JSON.stringify({
          state: l.state,
          paid: l.amountPaid,
          due: l.amountDue,
          over: l.amountOverpaid,
          attempt: {
            ...l.attempts[0],
            orderId: null,
            invoiceId: null,
            settlement: l.attempts[0]!.settlement?.amountPaid,
          },
          // How the money splits into rows depends on what each read saw; the sums do not.
          crypto,
          fiatCents: fiat,
          paidNotes: l.notifications.filter((n) => n.type === "order.paid").length,
        }),
      );
    }
    expect([...outcomes]).toHaveLength(1);
    expect(JSON.parse([...outcomes][0]!)).toMatchObject({
      state: "paid",
      paid: "100.00",
      fiatCents: 10000,
      crypto: 100,
      paidNotes: 1,
    });
  });
});
