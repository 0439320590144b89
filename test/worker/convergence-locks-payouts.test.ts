/**
 * Issue 10, classes 2, 6 and 7:
 * - class 2: two tabs lock different currencies while the first answer is slow: the locks run
 *   one after the other, and the attempt shows the currency, amount and address of the
 *   invoice the service holds, never the request's;
 * - class 6: currency locks are throttled per checkout (429 + Retry-After), and a lock of the
 *   currency already locked never calls the service;
 * - class 7: a payout commit whose answer was garbled stays `uncertain` (never failed) and is
 *   resolved by reading the withdrawal back by orderId; a refund whose quote failed with 5xx
 *   (no money moved) releases its hold.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Big from "big.js";
import { describe, expect, it } from "vitest";
import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import type { Env } from "../../worker/edge/env.ts";
import { LOCKS_PER_MINUTE } from "../../worker/order/lock-throttle.ts";
import { payoutStub } from "../../worker/payout/payout-stub.ts";
import { clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import {
  balance,
  deliverAll,
  fault,
  forgetBudget,
  ledgerOf,
  merchant,
  openCheckout,
  postJson,
  refundOrder,
  simulate,
  uniqueSub,
  upstreamInvoice,
  upstreamRequests,
} from "./helpers.ts";
import { lockCurrency as lock, paidOrder, type Snap, SHOPPER_TRON as TRON } from "./orders.ts";

const LOCK_PATH = "/x-sandbox/invoice/lock-currency";

clearFaultsAfterEach();

/** Lock calls the service received so far (tests run one at a time). */
const lockCalls = async () => (await upstreamRequests(LOCK_PATH, "POST")).length;

describe("class 2: racing currency locks book what the service holds", () => {
  it("two tabs, the first lock slow: the attempt shows the service's currency, amount and address, and the payment is booked in it", {
    timeout: 20_000,
  }, async () => {
    const sub = uniqueSub("race2");
    const orderId = `cc-${sub}`;
    const { body } = await openCheckout({ sub, amount: "100.00" });
    const id = body.data.id;
    await fault({ path: LOCK_PATH, method: "POST", mode: "delay", delayMs: 1500, times: 1 });
    const [a, b] = await Promise.all([lock(id, "USDT_TRC20"), lock(id, "TRX")]);
    expect([a.status, b.status]).toEqual([200, 200]);

    const service = (await upstreamInvoice(orderId)).body.data;
    const shown = (
      (await (
        await postJson(`/v1/checkouts/${id}/currency`, {
          cryptoCurrencyCode: String(service.cryptoCurrencyCode),
        })
      ).json()) as Snap
    ).data.attempt.payment!;
    expect(shown.cryptoCurrencyCode).toBe(service.cryptoCurrencyCode);
    expect(shown.address).toBe(service.address);
    expect(new Big(shown.amount).eq(new Big(String(service.cryptoAmountExpected)))).toBe(true);
    // The answer the last tab got is the service's too (locks ran one after the other).
    expect(b.body.data.attempt.payment?.address).toBe(service.address);

    await simulate(orderId, "paid");
    await deliverAll(orderId);
    const l = await ledgerOf(sub);
    expect(l.state).toBe("paid");
    expect(l.payments.map((p) => p.cryptoCode)).toEqual([service.cryptoCurrencyCode]);
    expect(l.amountOverpaid).toBe("0.00");
  });
});

describe("class 6: currency locks are throttled per checkout", () => {
  it("a lock of the currency already locked does not call the service; many concurrent ones make one call", async () => {
    const sub = uniqueSub("thr");
    const { body } = await openCheckout({ sub });
    const before = await lockCalls();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => lock(body.data.id, "USDT_TRC20")),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.data.attempt.payment?.address)).size).toBe(1);
    expect((await lockCalls()) - before).toBe(1);
  });

  it(`after ${LOCKS_PER_MINUTE} upstream locks in a minute, the next is 429 rate_limited with Retry-After, and calls nothing`, async () => {
    const sub = uniqueSub("thr");
    const { body } = await openCheckout({ sub });
    const before = await lockCalls();
    for (let i = 0; i < LOCKS_PER_MINUTE; i++) {
      expect((await lock(body.data.id, i % 2 === 0 ? "USDT_TRC20" : "TRX")).status).toBe(200);
    }
    const refused = await lock(body.data.id, "USDT_TRC20");
    expect([refused.status, refused.body.error?.code]).toEqual([429, "rate_limited"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await lockCalls()) - before).toBe(LOCKS_PER_MINUTE);
    // The currency already locked (TRX, the last one) is still answered.
    expect((await lock(body.data.id, "TRX")).status).toBe(200);
  });
});

/** Quotes a 20 TRX payout to the shopper's Tron address; returns its view. */
async function quoteTrx(orderId: string): Promise<PayoutView> {
  const quoted = await merchant("/v1/payouts", {
    method: "POST",
    body: JSON.stringify({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "20" }),
  });
  return ((await quoted.json()) as { data: PayoutView }).data;
}

async function payoutView(orderId: string): Promise<PayoutView> {
  return ((await (await merchant(`/v1/payouts/${orderId}`)).json()) as { data: PayoutView }).data;
}

/** Makes the payout's scheduled read of the service due, then runs its alarm. */
async function readBackNow(orderId: string): Promise<void> {
  const stub = payoutStub(env as Env, orderId);
  await runInDurableObject(stub, async (_o: unknown, state: DurableObjectState) => {
    state.storage.sql.exec("UPDATE upstream_objects SET next_read_at = 0");
    await state.storage.setAlarm(Date.now()); // the reconciler reads in production
  });
  await runDurableObjectAlarm(stub);
}

describe("class 7: uncertain is not failed", () => {
  it("a payout commit with a garbled answer is `uncertain`, then the alarm reads the withdrawal by orderId and adopts it: one debit", async () => {
    const orderId = uniqueSub("unc");
    const { totalDeduction } = await quoteTrx(orderId);
    const before = await balance("TRX");
    await fault({ path: "/withdrawal/commit", method: "POST", mode: "malformed", times: 1 });
    const lost = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
    expect(lost.status).toBe(503);
    expect((await payoutView(orderId)).status).toBe("uncertain");

    // The service's 60 s pause of the deployment's reads is over.
    await forgetBudget();
    await readBackNow(orderId);
    const resolved = await payoutView(orderId);
    expect(resolved.status).toBe("created");
    expect(resolved.withdrawal).not.toBeNull();
    // A commit now returns that withdrawal and sends nothing.
    const commits = (await upstreamRequests("/withdrawal/commit", "POST")).length;
    const again = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
    expect(again.status).toBe(200);
    expect((await upstreamRequests("/withdrawal/commit", "POST")).length).toBe(commits);
    expect(new Big(before).minus(await balance("TRX")).eq(new Big(totalDeduction))).toBe(true);
  });

  it("a commit whose answer was lost and whose retry got 429 is `uncertain`, not refused: the alarm adopts the withdrawal, one debit", async () => {
    const orderId = uniqueSub("unc429");
    const { totalDeduction } = await quoteTrx(orderId);
    const before = await balance("TRX");
    // The first attempt commits but its answer is dropped; the retry is refused with a 429 whose
    // wait does not fit the call's budget, so the call ends on that 429.
    await fault({ path: "/withdrawal/commit", method: "POST", mode: "drop", times: 1 });
    await fault({
      path: "/withdrawal/commit",
      method: "POST",
      mode: "status",
      status: 429,
      msBeforeNext: 60_000,
      times: 1,
    });
    const lost = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
    expect(lost.status).toBe(503);
    expect((await payoutView(orderId)).status).toBe("uncertain");

    // The service's 60 s pause of the deployment's reads is over.
    await forgetBudget();
    await readBackNow(orderId);
    const resolved = await payoutView(orderId);
    expect(resolved.withdrawal).not.toBeNull();
    expect(new Big(before).minus(await balance("TRX")).eq(new Big(totalDeduction))).toBe(true);
  });

  it("an uncertain commit the service never made returns to `quoted` and commits once", async () => {
    const orderId = uniqueSub("unc0");
    await merchant("/v1/payouts", {
      method: "POST",
      body: JSON.stringify({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "20" }),
    });
    // 5xx before the service did anything (three tries: the commit policy retries a 5xx).
    await fault({
      path: "/withdrawal/commit",
      method: "POST",
      mode: "status",
      status: 500,
      times: 3,
    });
    const lost = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
    expect(lost.status).toBe(503);
    const again = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
    expect(again.status).toBe(200);
    const view = ((await again.json()) as { data: PayoutView }).data;
    expect([view.status, view.withdrawal === null]).toEqual(["created", false]);
  });

  it("a refund whose quote failed with 5xx (nothing committed) releases its hold: the shopper can retry", async () => {
    const { sub, id, orderId } = await paidOrder("partial", "20", { label: "rq" });
    await simulate(orderId, "expire");
    await deliverAll(orderId);
    await fault({
      path: "/withdrawal/quote",
      method: "POST",
      mode: "status",
      status: 500,
      times: 3,
    });
    const failed = await refundOrder(sub);
    expect(failed.status).toBe(503);
    const retry = await postJson(`/v1/checkouts/${id}/retry`, {});
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as Snap).data.amountDue).toBe("29.90");
    expect((await ledgerOf(sub)).refunds).toEqual([]);
  });
});
