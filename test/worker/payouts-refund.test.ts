/**
 * Refunds: `POST /v1/orders/:invoiceNumber/refund` pays the shopper's refund address the
 * excess of an overpaid order (or what a partially paid order received, once no attempt is
 * open), exactly, through the payout quote → commit path with orderId
 * `<prefix>-<invoiceNumber>-refund`, then `-refund-2`, … after a failed refund withdrawal.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Big from "big.js";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/edge/env.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { payoutStub } from "../../worker/payout/payout-stub.ts";
import {
  balance,
  deliverAll,
  ledgerOf,
  merchant,
  postJson,
  refundOrder,
  sandbox,
  simulate,
  uniqueSub,
  upstreamRequests,
  worker,
} from "./helpers.ts";
import { failedRefund, paidOrder, SHOPPER_TRON as SHOPPER } from "./orders.ts";

/** Ends the order's (partially paid) first attempt: the shopper can no longer pay into it. */
async function endAttempt(sub: string) {
  expect((await simulate(`cc-${sub}`, "expire")).status).toBe(200);
  await deliverAll(`cc-${sub}`);
}

/**
 * Puts the order back as it was before it heard that its first refund failed (the payout knows):
 * the refund recorded with `status` and its hold taken, as when that report was lost.
 */
async function loseFailureReport(sub: string, status: "created" | "completed") {
  const stub = env.ORDERS.get(env.ORDERS.idFromName((await ledgerOf(sub)).checkoutId));
  await runInDurableObject(stub, (_o: OrderObject, state) => {
    const sql = state.storage.sql;
    sql.exec("UPDATE refunds SET status = ? WHERE order_id = ?", status, `cc-${sub}-refund`);
    sql.exec(
      "INSERT INTO refund_hold (id, order_id, reason, started_at) VALUES (1, ?, 'overpaid', 'then')",
      `cc-${sub}-refund`,
    );
  });
}

/** Polling for a forced alarm run: 40 tries, 50 ms apart. */
const POLL = { timeout: 4000, interval: 50 };

describe("POST /v1/orders/:invoiceNumber/refund", () => {
  it("refunds exactly the excess of an overpaid order to the shopper's address, once", async () => {
    const { sub } = await paidOrder("over", "15.123456");
    const ledger = (await (await merchant(`/v1/orders/${sub}`)).json()) as {
      data: { attempts: { status: string; cryptoExpected: string; cryptoReceived: string }[] };
    };
    const attempt = ledger.data.attempts[0]!;
    expect(attempt.status).toBe("overpaid");
    const excess = new Big(attempt.cryptoReceived).minus(attempt.cryptoExpected);
    expect(excess.toFixed()).toBe("15.123456");

    const before = await balance("USDT_TRC20");
    const res = await refundOrder(sub);
    expect(res.status).toBe(201);
    const view = res.body.data;
    expect(view).toMatchObject({
      kind: "refund",
      orderId: `cc-${sub}-refund`,
      invoiceNumber: sub,
      cryptoCurrencyCode: "USDT_TRC20",
      address: SHOPPER,
      amount: excess.toFixed(),
      status: "created",
    });
    expect(view.withdrawal?.debitedAmount).toBe(view.totalDeduction);
    expect(new Big(before).minus(await balance("USDT_TRC20")).toFixed()).toBe(
      new Big(view.totalDeduction).toFixed(),
    );
    const upstream = await sandbox<{
      data: { address: string; amount: string | number; status: string };
    }>(`/withdrawal?accountId=00000000-0000-4000-8000-000000000001&orderId=cc-${sub}-refund`, {
      headers: { "x-tenant-api-key": "test-api-key-never-shown" },
    });
    expect(upstream.body.data.address).toBe(SHOPPER);
    expect(new Big(String(upstream.body.data.amount)).eq(excess)).toBe(true);

    // Asking again returns the same refund (200) and pays nothing more.
    const commits = (await upstreamRequests("/withdrawal/commit", "POST")).length;
    const again = await refundOrder(sub);
    expect([again.status, again.body.data.withdrawal?.id]).toEqual([200, view.withdrawal?.id]);
    expect((await upstreamRequests("/withdrawal/commit", "POST")).length).toBe(commits);
    // Another amount for the same order is a conflict, not a second refund.
    const other = await refundOrder(sub, { amount: "12" });
    expect([other.status, other.body.error?.code]).toEqual([409, "checkout_conflict"]);
  });

  it("refuses a misspelt field with 400 validation_failed naming it, and refunds nothing (not everything)", async () => {
    const { sub } = await paidOrder("partial", "20");
    await endAttempt(sub);
    const commits = (await upstreamRequests("/withdrawal/quote", "POST")).length;
    const typo = await refundOrder(sub, { amout: "1" });
    expect([typo.status, typo.body.error?.code]).toEqual([400, "validation_failed"]);
    expect(typo.body.error?.message).toContain("amout");
    // A JSON number: the field named once, not "amount: amount must be…".
    const number = await refundOrder(sub, { amount: 5 });
    expect([number.status, number.body.error]).toEqual([
      400,
      { code: "validation_failed", message: 'amount: must be a decimal string such as "15"' },
    ]);
    expect((await upstreamRequests("/withdrawal/quote", "POST")).length).toBe(commits);
    expect((await ledgerOf(sub)).refunds).toEqual([]);
  });

  it("refunds what a partially paid order received, or a smaller amount the merchant names", async () => {
    const { sub } = await paidOrder("partial", "20");
    await endAttempt(sub);
    const tooMuch = await refundOrder(sub, { amount: "20.000001" });
    expect([tooMuch.status, tooMuch.body.error?.code]).toEqual([400, "validation_failed"]);
    expect(tooMuch.body.error?.message).toContain("20");
    const res = await refundOrder(sub, { amount: "15.5" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: "15.5", status: "created", address: SHOPPER });
  });

  it("answers 409 when there is nothing to refund or no refund address, and 404 for an unknown order", async () => {
    const { sub: exact } = await paidOrder("paid");
    const nothing = await refundOrder(exact);
    expect([nothing.status, nothing.body.error?.code]).toEqual([409, "nothing_to_refund"]);
    const { sub: noAddress } = await paidOrder("over", "15", { refundAddress: null });
    const missing = await refundOrder(noAddress);
    expect([missing.status, missing.body.error?.code]).toEqual([409, "refund_address_missing"]);
    const unknown = await refundOrder(uniqueSub("ghost"));
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, "not_found"]);
  });

  it("refuses a refund below the currency's minimum withdrawal with 400 amount_below_minimum", async () => {
    const { sub } = await paidOrder("over", "2");
    const res = await refundOrder(sub);
    expect([res.status, res.body.error?.code]).toEqual([400, "amount_below_minimum"]);
  });

  it("refuses to refund a partial payment while the shopper can still pay the rest", async () => {
    const { sub } = await paidOrder("partial", "20");
    const early = await refundOrder(sub);
    expect([early.status, early.body.error?.code]).toEqual([409, "attempt_open"]);
    // The shopper pays the rest: the order is paid and nothing was refunded.
    expect((await simulate(`cc-${sub}`, "paid")).status).toBe(200);
    await deliverAll(`cc-${sub}`);
    const ledger = await ledgerOf(sub);
    expect([ledger.state, ledger.amountPaid, ledger.refunds]).toEqual(["paid", "49.90", []]);
    const none = await refundOrder(sub);
    expect([none.status, none.body.error?.code]).toEqual([409, "nothing_to_refund"]);
  });

  it("closes a refunded partial order: state refunded, no retry, no lock, shown in the snapshot", async () => {
    const { sub } = await paidOrder("partial", "20");
    await endAttempt(sub);
    const res = await refundOrder(sub);
    expect([res.status, res.body.data.amount, res.body.data.orderId]).toEqual([
      201,
      "20",
      `cc-${sub}-refund`,
    ]);
    const ledger = await ledgerOf(sub);
    expect(ledger.state).toBe("refunded");
    expect(ledger.refunds).toEqual([
      {
        orderId: `cc-${sub}-refund`,
        cryptoCurrencyCode: "USDT_TRC20",
        amount: "20",
        address: SHOPPER,
        status: "created",
        withdrawalId: res.body.data.withdrawal?.id,
      },
    ]);
    const id = ledger.checkoutId;
    const snap = (await (await postJson(`/v1/checkouts/${id}/retry`, {})).json()) as {
      error?: { code: string };
    };
    expect(snap.error?.code).toBe("order_refunded");
    const lock = await postJson(`/v1/checkouts/${id}/currency`, {
      cryptoCurrencyCode: "USDT_TRC20",
    });
    expect(lock.status).toBe(409);
    expect(((await lock.json()) as { error: { code: string } }).error.code).toBe("order_refunded");
    const view = (await (await worker(`/v1/checkouts/${id}`)).json()) as {
      data: { orderState: string; canRetry: boolean; refunds: unknown[] };
    };
    expect([view.data.orderState, view.data.canRetry, view.data.refunds.length]).toEqual([
      "refunded",
      false,
      1,
    ]);
    // Asking again returns the same refund; a refund never pays the same money twice.
    const again = await refundOrder(sub);
    expect([again.status, again.body.data.orderId]).toEqual([200, `cc-${sub}-refund`]);
  });

  it("starts refund -refund-2 after the first refund's withdrawal failed, for the same amount", async () => {
    const { sub } = await paidOrder("over", "15");
    await failedRefund(sub);
    expect((await ledgerOf(sub)).refunds[0]?.status).toBe("failed");

    const second = await refundOrder(sub);
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({
      orderId: `cc-${sub}-refund-2`,
      amount: "15",
      status: "created",
    });
    const ledger = await ledgerOf(sub);
    expect(ledger.state).toBe("paid");
    expect(ledger.refunds.map((r) => [r.orderId, r.status])).toEqual([
      [`cc-${sub}-refund`, "failed"],
      [`cc-${sub}-refund-2`, "created"],
    ]);
    // The second refund is live: asking again returns it, and nothing more is refundable.
    const third = await refundOrder(sub);
    expect([third.status, third.body.data.orderId]).toEqual([200, `cc-${sub}-refund-2`]);
  });

  it("records a failure the order missed (its report was lost) before starting -refund-2", async () => {
    const { sub } = await paidOrder("over", "15");
    await failedRefund(sub);
    await loseFailureReport(sub, "created");
    const second = await refundOrder(sub);
    expect([second.status, second.body.data.orderId, second.body.data.amount]).toEqual([
      201,
      `cc-${sub}-refund-2`,
      "15",
    ]);
    expect((await ledgerOf(sub)).refunds.map((r) => [r.orderId, r.status])).toEqual([
      [`cc-${sub}-refund`, "failed"],
      [`cc-${sub}-refund-2`, "created"],
    ]);
  });

  it("answers 503 and pays nothing new when the order cannot record the failure it missed", async () => {
    const { sub } = await paidOrder("over", "15");
    await failedRefund(sub);
    // The order holds the refund as completed (final): the payout's `failed` cannot replace it.
    await loseFailureReport(sub, "completed");
    const res = await refundOrder(sub);
    expect([res.status, res.body.error?.code]).toEqual([503, "service_busy"]);
    expect(
      (await upstreamRequests("/withdrawal/quote", "POST")).some(
        (r) => r.query.orderId === `cc-${sub}-refund-2`,
      ),
    ).toBe(false);
    expect((await ledgerOf(sub)).refunds.map((r) => r.status)).toEqual(["completed"]);
  });

  it("a refund's final status the order could not record is reported again on the next reads until it lands", async () => {
    const { sub, id } = await paidOrder("over", "15");
    const made = await refundOrder(sub);
    expect(made.status).toBe(201);
    const refundId = `cc-${sub}-refund`;
    // The withdrawal fails at the service; its webhook never arrives.
    const failed = await sandbox(`/sandbox/withdrawals/${made.body.data.withdrawal!.id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "fail" }),
    });
    expect(failed.status).toBe(200);
    const order = env.ORDERS.get(env.ORDERS.idFromName(id));
    const payout = payoutStub(env as Env, refundId);
    const renameRefunds = (from: string, to: string) =>
      runInDurableObject(order, (_o, state) =>
        state.storage.sql.exec(`ALTER TABLE ${from} RENAME TO ${to}`),
      );
    const readNow = async () => {
      await runInDurableObject(payout, async (_o, state) => {
        state.storage.sql.exec(
          "UPDATE upstream_objects SET next_read_at = 0 WHERE next_read_at IS NOT NULL",
        );
        await state.storage.setAlarm(Date.now()); // the reconciler reads in production
      });
      await runDurableObjectAlarm(payout);
    };
    const scheduled = () =>
      runInDurableObject(
        payout,
        (_o, state) =>
          state.storage.sql
            .exec<{ n: number }>(
              "SELECT COUNT(*) AS n FROM upstream_objects WHERE next_read_at IS NOT NULL",
            )
            .one().n,
      );
    const payoutStatus = async () =>
      ((await (await merchant(`/v1/payouts/${refundId}`)).json()) as { data: { status: string } })
        .data.status;
    // The order cannot record it (its refunds table is away): the payout keeps reading. (An
    // alarm the runtime is already running makes a forced run a no-op: read until it ran.)
    await renameRefunds("refunds", "refunds_away");
    await expect
      .poll(async () => {
        await readNow();
        return payoutStatus();
      }, POLL)
      .toBe("failed");
    expect(await scheduled()).toBeGreaterThan(0);
    await renameRefunds("refunds_away", "refunds");
    expect((await ledgerOf(sub)).refunds.map((r) => r.status)).toEqual(["created"]);
    // The next read reports it: the order knows the refund failed, and stops being read.
    const refundStatus = async () => (await ledgerOf(sub)).refunds.map((r) => r.status);
    await expect
      .poll(async () => {
        await readNow();
        return refundStatus();
      }, POLL)
      .toEqual(["failed"]);
    await expect.poll(scheduled, POLL).toBe(0);
  });

  it("reserves refund orderIds: a merchant payout named …-refund or …-refund-<n> is refused", async () => {
    for (const orderId of ["cc-1001-refund", "cc-1001-refund-2"]) {
      const res = await merchant("/v1/payouts", {
        method: "POST",
        body: JSON.stringify({
          orderId,
          cryptoCurrencyCode: "USDT_TRC20",
          address: SHOPPER,
          amount: "25",
        }),
      });
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, body.error.code]).toEqual([400, "validation_failed"]);
      expect(body.error.message).toContain("reserved for order refunds");
    }
    expect(
      (await upstreamRequests("/withdrawal/quote", "POST")).some((r) =>
        String(r.query.orderId ?? "").startsWith("cc-1001-refund"),
      ),
    ).toBe(false);
  });
});
