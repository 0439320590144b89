import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import { sleep } from "../support/wait.ts";
import {
  deliver,
  deliverAll,
  deliveriesFor,
  fault,
  ledgerOf,
  postJson,
  refundOrder,
  sandbox,
  simulate,
  upstreamRequests,
  worker,
} from "./helpers.ts";
import { markEnded, paidOrder, slowRefundQuote } from "./orders.ts";

async function retry(id: string) {
  const res = await postJson(`/v1/checkouts/${id}/retry`, {});
  return {
    status: res.status,
    body: (await res.json()) as { data: CheckoutSnapshot; error?: { code: string } },
  };
}

/** An order of 49.90 with 20 USDT_TRC20 received on attempt 1 and a refund address. */
const partialOrder = () => paidOrder("partial", "20", { label: "rr" });

clearFaultsAfterEach();

/** The checkout's snapshot as the widget reads it. */
async function snapshotOf(id: string): Promise<CheckoutSnapshot> {
  return ((await (await worker(`/v1/checkouts/${id}`)).json()) as { data: CheckoutSnapshot }).data;
}

describe("the refund hold", () => {
  it("a shopper's retry landing between the refund check and its commit is refused", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await partialOrder();
    expect((await simulate(orderId, "expire")).status).toBe(200);
    await deliverAll(orderId);
    // The quote answers late: the refund has passed its check but not committed yet.
    await slowRefundQuote();
    const pending = refundOrder(sub);
    await sleep(400);
    const during = await retry(id);
    expect([during.status, during.body.error?.code]).toEqual([409, "order_refunded"]);
    // The widget is never offered the retry the worker refuses.
    expect((await snapshotOf(id)).canRetry).toBe(false);
    const lock = await postJson(`/v1/checkouts/${id}/currency`, { cryptoCurrencyCode: "TRX" });
    expect(lock.status).toBe(409);
    const done = await pending;
    expect([done.status, done.body.data.orderId]).toEqual([201, `cc-${sub}-refund`]);
    const ledger = await ledgerOf(sub);
    expect([ledger.state, ledger.attempts.length]).toEqual(["refunded", 1]);
    expect(
      (await upstreamRequests("/invoice", "POST")).some(
        (r) => r.status < 300 && String(r.query.orderId ?? "").startsWith(`cc-${sub}-`),
      ),
    ).toBe(false);
  });

  it("is released when the refund's withdrawal fails: the shopper may retry again", async () => {
    const { sub, id, orderId } = await partialOrder();
    expect((await simulate(orderId, "expire")).status).toBe(200);
    await deliverAll(orderId);
    const made = await refundOrder(sub);
    expect(made.status).toBe(201);
    await sandbox(`/sandbox/withdrawals/${made.body.data.withdrawal!.id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "fail" }),
    });
    for (const h of (await deliveriesFor(`cc-${sub}-refund`)).filter(
      (d) => d.event === "withdrawal.statusChanged",
    ))
      expect((await deliver(h)).status).toBe(200);
    const again = await retry(id);
    expect([again.status, again.body.data.attempt.number, again.body.data.amountDue]).toEqual([
      200,
      2,
      "29.90",
    ]);
  });

  it("is released when the quote is refused (4xx): nothing was sent, the shopper may retry", async () => {
    // 1 USDT is below the minimum withdrawal.
    const { sub, id } = await paidOrder("partial", "1", { label: "rr" });
    await simulate(`cc-${sub}`, "expire");
    await deliverAll(`cc-${sub}`);
    const refused = await refundOrder(sub);
    expect([refused.status, refused.body.error?.code]).toEqual([400, "amount_below_minimum"]);
    // The release is an event: watchers are offered the retry again.
    expect((await snapshotOf(id)).canRetry).toBe(true);
    expect((await retry(id)).status).toBe(200);
  });

  it("stays after an uncertain commit, even when the repeat is refused (4xx): no second payment while money may have left", async () => {
    const { sub, id, orderId } = await partialOrder();
    expect((await simulate(orderId, "expire")).status).toBe(200);
    await deliverAll(orderId);
    // The service commits the withdrawal, but its answer is garbled: money may have left.
    await fault({ path: "/withdrawal/commit", method: "POST", mode: "malformed", times: 1 });
    const lost = await refundOrder(sub);
    expect(lost.status).toBeGreaterThanOrEqual(500);
    // The merchant repeats the refund with another amount: refused, and the hold must stay.
    const other = await refundOrder(sub, { amount: "15" });
    expect(other.status).toBe(409);
    const during = await retry(id);
    expect([during.status, during.body.error?.code]).toEqual([409, "order_refunded"]);
    // Repeating the original refund resolves it: the one withdrawal already made is adopted.
    const again = await refundOrder(sub);
    expect(again.status).toBeLessThan(300);
    expect(again.body.data.orderId).toBe(`${orderId}-refund`);
    // One refund, under the first orderId (the service keeps one withdrawal per orderId).
    const ledger = await ledgerOf(sub);
    expect(ledger.refunds.map((r) => r.orderId)).toEqual([`${orderId}-refund`]);
    expect(ledger.state).toBe("refunded");
  });

  it("a refund asked while the next attempt is being opened is refused with attempt_open", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await partialOrder();
    expect((await simulate(orderId, "expire")).status).toBe(200);
    await deliverAll(orderId);
    await fault({ path: "/invoice", method: "POST", mode: "delay", delayMs: 1500, times: 1 });
    const opening = retry(id);
    await sleep(400);
    const during = await refundOrder(sub);
    expect([during.status, during.body.error?.code]).toEqual([409, "attempt_open"]);
    expect((await opening).status).toBe(200);
    expect((await ledgerOf(sub)).refunds).toEqual([]);
  });
});

describe("money landing after a partial refund", () => {
  it("is applied, shown and notified, but never turns the refunded order paid", async () => {
    const { sub, id, orderId } = await partialOrder();
    await markEnded(id);
    const made = await refundOrder(sub);
    expect([made.status, made.body.data.amount]).toEqual([201, "20"]);
    // The rest arrives on the ended invoice after the refund.
    expect((await simulate(orderId, "paid")).status).toBe(200);
    await deliverAll(orderId);
    const ledger = await ledgerOf(sub);
    expect([ledger.state, ledger.amountPaid, ledger.amountDue]).toEqual([
      "refunded",
      "49.90",
      "0.00",
    ]);
    expect(ledger.payments.map((p) => p.fiatAmount)).toEqual(["20.00", "29.90"]);
    const types = ledger.notifications.map((n) => n.type);
    expect(types.filter((t) => t === "order.payment_applied")).toHaveLength(2);
    expect(types).not.toContain("order.paid");
    const snap = (
      (await (await postJson(`/v1/checkouts/${id}/retry`, {})).json()) as {
        error?: { code: string };
      }
    ).error;
    expect(snap?.code).toBe("order_refunded");
  });
});

describe("retry while a webhook of the ended attempt is in flight", () => {
  it("waits for it and asks only what is still due (here: nothing, the order got paid)", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await partialOrder();
    await markEnded(id);
    // Late money on the ended attempt: its webhook's read answers late.
    expect((await simulate(orderId, "paid")).status).toBe(200);
    const hook = (await deliveriesFor(orderId)).at(-1)!;
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "timeout-after-create",
      delayMs: 1500,
      times: 1,
      scope: orderId,
    });
    const slow = deliver(hook);
    await sleep(400);
    const during = await retry(id);
    expect((await slow).status).toBe(200);
    expect([during.status, during.body.error?.code]).toEqual([409, "order_paid"]);
    const ledger = await ledgerOf(sub);
    expect([ledger.state, ledger.attempts.length]).toEqual(["paid", 1]);
  });
});
