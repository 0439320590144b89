/**
 * Adversarial regressions on the money paths (issue 10): interleavings the simulation does not
 * draw. Each test names the class it proves; a test marked `it.fails` documents a bug that is
 * still open (its comment says what breaks and why).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Big from "big.js";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../worker/api/contract.ts";
import { checkoutIdFor } from "../../worker/ids/checkout-id.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import {
  type Delivery,
  deliver,
  deliverAll,
  deliveriesFor,
  fault,
  ledgerOf,
  openCheckout,
  postJson,
  refundOrder,
  sandbox,
  simulate,
  sleep,
  upstreamInvoice,
  worker,
} from "./helpers.ts";
import { lockedCheckout, paidOrder } from "./orders.ts";
import { readFrames } from "./sse-frames.ts";

const LOCK_PATH = "/x-sandbox/invoice/lock-currency";

afterEach(async () => {
  await sandbox("/sandbox/faults", { method: "DELETE" });
});

type Snap = { data: CheckoutSnapshot; error?: { code: string; message: string } };

async function lock(id: string, cryptoCurrencyCode: string) {
  const res = await postJson(`/v1/checkouts/${id}/currency`, { cryptoCurrencyCode });
  return { status: res.status, body: (await res.json()) as Snap };
}

describe("a currency lock whose answer was lost", () => {
  it("going back to the currency the ledger still shows asks the service again: the widget never shows an address the service no longer expects", async () => {
    const { id, orderId } = await lockedCheckout("49.90", "lost");
    // The service switches the invoice to TRX, but its answer never reaches the worker.
    await fault({ path: LOCK_PATH, method: "POST", mode: "drop", times: 1 });
    const lost = await lock(id, "TRX");
    expect(lost.status).toBeGreaterThanOrEqual(500);
    expect((await upstreamInvoice(orderId)).body.data.cryptoCurrencyCode).toBe("TRX");
    // The shopper goes back to USDT: the ledger still says USDT_TRC20 was locked.
    const back = await lock(id, "USDT_TRC20");
    expect(back.status).toBe(200);
    const service = (await upstreamInvoice(orderId)).body.data;
    const shown = back.body.data.attempt.payment!;
    expect(shown.cryptoCurrencyCode).toBe(service.cryptoCurrencyCode);
    expect(shown.address).toBe(service.address);
    expect(new Big(shown.amount).eq(new Big(String(service.cryptoAmountExpected)))).toBe(true);
  });

  it("the same holds when the order object is reset while the service is locking", {
    timeout: 20_000,
  }, async () => {
    const { id, orderId } = await lockedCheckout("49.90", "lostrst");
    // The service locks TRX at once but answers 1.5 s later; the object is reset meanwhile.
    await fault({
      path: LOCK_PATH,
      method: "POST",
      mode: "timeout-after-create",
      delayMs: 1500,
      times: 1,
    });
    const inFlight = lock(id, "TRX");
    await sleep(400);
    const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
    await runInDurableObject(stub, (_o, state) => state.abort("reset")).catch(() => {});
    expect((await inFlight).status).toBe(503);
    expect((await upstreamInvoice(orderId)).body.data.cryptoCurrencyCode).toBe("TRX");
    const back = await lock(id, "USDT_TRC20");
    expect(back.status).toBe(200);
    const service = (await upstreamInvoice(orderId)).body.data;
    expect(back.body.data.attempt.payment?.cryptoCurrencyCode).toBe(service.cryptoCurrencyCode);
    expect(back.body.data.attempt.payment?.address).toBe(service.address);
  });
});

/** Marks every attempt of the order ended, as an `expired` read with the same money would. */
function markEnded(id: string) {
  const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
  return runInDurableObject(stub, (o: OrderObject) => {
    o.store.sql.exec("UPDATE attempts SET ended = 1");
  });
}

/**
 * An order with 20 of 49.90 USDT received on an ended attempt, whose refund is slow to quote;
 * the rest of the money lands while the refund holds the order. Returns the refund's answer.
 */
async function paidDuringPartialRefund() {
  const { sub, id, orderId } = await paidOrder("partial", "20", { label: "rl" });
  await markEnded(id);
  await fault({
    path: "/withdrawal/quote",
    method: "POST",
    mode: "delay",
    delayMs: 1500,
    times: 1,
  });
  const pending = refundOrder(sub);
  await sleep(400);
  // The hold is taken; the rest lands on the ended invoice before the refund is recorded.
  expect((await simulate(orderId, "paid")).status).toBe(200);
  await deliverAll(orderId);
  const done = await pending;
  expect([done.status, done.body.data.amount]).toEqual([201, "20"]);
  return { sub, id, refund: done.body.data };
}

const paidNotes = async (sub: string) =>
  (await ledgerOf(sub)).notifications.filter((n) => n.type === "order.paid");

describe("money landing while a partial refund is being quoted", () => {
  it("the refund goes through: the order ends refunded and order.paid is never sent", {
    timeout: 20_000,
  }, async () => {
    const { sub } = await paidDuringPartialRefund();
    expect((await ledgerOf(sub)).state).toBe("refunded");
    // The merchant ships on order.paid: it must not hear "paid" while the shopper's money went
    // back and the order ends refunded (before the fix it did).
    expect(await paidNotes(sub)).toEqual([]);
  });

  it("the refund fails: the order is paid, and order.paid is sent then, once", {
    timeout: 20_000,
  }, async () => {
    const { sub, refund } = await paidDuringPartialRefund();
    await failRefund(refund);
    expect((await ledgerOf(sub)).state).toBe("paid");
    expect(await paidNotes(sub)).toHaveLength(1);
  });
});

/** Has the sandbox fail a refund's withdrawal and delivers its webhooks (each 200). */
async function failRefund(refund: { orderId: string; withdrawal: { id: string } | null }) {
  const failed = await sandbox(`/sandbox/withdrawals/${refund.withdrawal!.id}/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action: "fail" }),
  });
  expect(failed.status).toBe(200);
  for (const h of (await deliveriesFor(refund.orderId)).filter(
    (d) => d.event === "withdrawal.statusChanged",
  ))
    expect((await deliver(h)).status).toBe(200);
}

describe("money landing while a partial refund is quoted, then the commit is refused", () => {
  it("the hold is released, the order is paid, and order.paid is sent then, once", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await paidOrder("partial", "20", { label: "ra" });
    await markEnded(id);
    await fault({
      path: "/withdrawal/quote",
      method: "POST",
      mode: "delay",
      delayMs: 1500,
      times: 1,
    });
    await fault({
      path: "/withdrawal/commit",
      method: "POST",
      mode: "status",
      status: 409,
      code: "exceptions.withdrawal.insufficientBalance",
      times: 1,
    });
    const pending = refundOrder(sub);
    await sleep(400);
    expect((await simulate(orderId, "paid")).status).toBe(200);
    await deliverAll(orderId);
    expect(await paidNotes(sub)).toEqual([]);
    const refused = await pending;
    expect([refused.status, refused.body.error?.code]).toEqual([409, "insufficient_balance"]);
    const ledger = await ledgerOf(sub);
    expect([ledger.state, ledger.refunds]).toEqual(["paid", []]);
    expect(await paidNotes(sub)).toHaveLength(1);
  });
});

describe("the widget's view while a partial refund is being quoted", () => {
  // OPEN (the fix belongs in the order totals, `order/snapshot.ts` + `order/refunds.ts`, which
  // another branch is moving). While a refund of the partial payment holds the order, money
  // that completes it makes the snapshot `paid` with `final: true`: every SSE stream closes and
  // the widget stops listening (a reconnect after the final event gets 204). The refund then
  // records live and the order ends `refunded`, which no widget ever sees: the last snapshot a
  // watcher received (`paid`) is not the ledger (`refunded`). The hold of a partial refund
  // should count like a live refund in the order's state (not final, `refunded` while it holds;
  // back to `paid` with an event and `order.paid` when it is released).
  it.fails("never publishes a final snapshot that a later event contradicts", {
    timeout: 20_000,
  }, async () => {
    const { sub, id } = await paidDuringPartialRefund();
    const entries = (await ledgerOf(sub)).log.length;
    const res = await worker(`/v1/checkouts/${id}/events?lastEventId=0`);
    const { frames } = await readFrames<CheckoutSnapshot>(res, entries);
    const last = frames.at(-1)!.data;
    expect(last.orderState, "the last event").toBe("refunded");
    const firstFinal = frames.findIndex((f) => f.data.final);
    // A final snapshot ends every watcher's stream: nothing after it may change the state.
    if (firstFinal >= 0)
      expect(frames[firstFinal]!.data.orderState, "the final event").toBe(last.orderState);
  });
});

describe("money landing after a partial refund that then fails", () => {
  it("the order is paid once the refund failed, and order.paid is sent then, once", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await paidOrder("partial", "20", { label: "rf" });
    await markEnded(id);
    const made = await refundOrder(sub);
    expect(made.status).toBe(201);
    // The rest lands while the refund is live: applied, the order stays `refunded`.
    expect((await simulate(orderId, "paid")).status).toBe(200);
    await deliverAll(orderId);
    expect((await ledgerOf(sub)).state).toBe("refunded");
    expect(await paidNotes(sub)).toEqual([]);
    // The refund fails: nothing went back, the shopper paid the whole order.
    await failRefund(made.body.data);
    expect((await ledgerOf(sub)).state).toBe("paid");
    // Before the fix no `order.paid` was ever sent for this paid order.
    expect(await paidNotes(sub)).toHaveLength(1);
  });
});

describe("a webhook about a status the service already left (processing ⇄ suspended)", () => {
  // OPEN (not fixed here: converge/delivery.ts is being reworked on another branch). Since the
  // fix for sim seed 103988, a read of the other status of the same rank never covers a
  // delivery. When the service really moved processing → suspended → processing, the
  // `suspended` delivery reads `processing` on every redelivery and is answered 503 until the
  // invoice leaves rank 1 (paid, expired, …): the ledger is right, but the service redelivers
  // a past state again and again (and may mark the endpoint failing). The envelope's signed
  // `timestamp` is the service's only clock: a delivery older than one already acknowledged for
  // the same invoice is superseded and could be answered 200 without being applied.
  it.fails("is acknowledged once a newer delivery of the same invoice was acknowledged", async () => {
    const { orderId } = await lockedCheckout("49.90", "susp");
    for (const action of ["processing", "suspend", "processing"])
      expect((await simulate(orderId, action)).status).toBe(200);
    const hooks = (await deliveriesFor(orderId)).filter((d) => d.event === "invoice.statusChanged");
    const statuses = hooks.map(
      (h) => (JSON.parse(h.body) as { data: { status: string } }).data.status,
    );
    expect(statuses.slice(-3)).toEqual(["processing", "suspended", "processing"]);
    const [, suspended, back] = hooks.slice(-3) as [Delivery, Delivery, Delivery];
    expect((await deliver(back)).status, "the newer delivery").toBe(200);
    // The older `suspended` delivery, redelivered after the newer one was acknowledged.
    expect((await deliver(suspended)).status, "the superseded delivery").toBe(200);
  });
});

describe("an order paid twice over by two attempts (late money on an ended attempt)", () => {
  // OPEN (refund planning, `payout/refund.ts`, is being moved on another branch). A paid order
  // refunds only the crypto excess of attempts the service calls `overpaid`. When money lands
  // late on an ended attempt after the next attempt paid the rest (the real service credits
  // money after expiry), each attempt is exactly `paid`, the ledger reports `amountOverpaid`
  // 29.90, and the refund answers 409 `nothing_to_refund`: the shopper's second payment can
  // never be returned through the API. The refundable excess should count what attempts
  // received beyond the order's amount (in the refund address's currency).
  it.fails("lets the merchant refund what the order received beyond its amount", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await paidOrder("partial", "20", { label: "twice" });
    await markEnded(id);
    const next = await postJson(`/v1/checkouts/${id}/retry`, {});
    expect(next.status).toBe(200);
    expect((await lock(id, "USDT_TRC20")).status).toBe(200);
    expect((await simulate(`${orderId}-2`, "paid")).status).toBe(200);
    await deliverAll(`${orderId}-2`);
    // The rest of attempt 1 lands late: the shopper paid 29.90 twice.
    expect((await simulate(orderId, "paid")).status).toBe(200);
    await deliverAll(orderId);
    const ledger = await ledgerOf(sub);
    expect([ledger.state, ledger.amountPaid, ledger.amountOverpaid]).toEqual([
      "paid",
      "79.80",
      "29.90",
    ]);
    const refund = await refundOrder(sub);
    expect(refund.body.error?.code, "refund refused").toBeUndefined();
    expect(refund.status).toBe(201);
    expect(new Big(refund.body.data.amount).gt(0)).toBe(true);
  });
});

/** Sets the merchant's tolerance as the order object reads it (its configuration). */
function setTolerance(id: string, percent: string | undefined) {
  const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
  return runInDurableObject(stub, (o: OrderObject) => {
    // A new env object: the parsed configuration is cached per env object (as per deploy).
    const holder = o as unknown as { env: Record<string, unknown> };
    const { PAYMENT_TOLERANCE_PERCENT: _, ...rest } = holder.env;
    holder.env = percent === undefined ? rest : { ...rest, PAYMENT_TOLERANCE_PERCENT: percent };
  });
}

describe("the tolerance changing while an order is open", () => {
  it("an order once paid within the tolerance stays paid: one order.paid, never a second", {
    timeout: 20_000,
  }, async () => {
    const sub = `tol${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const id = await checkoutIdFor("invoice", sub, env.CHECKOUT_SIGNING_SECRET as string);
    try {
      await setTolerance(id, "5");
      const { body } = await openCheckout({ sub, amount: "100.00" });
      expect(body.data.id).toBe(id);
      expect((await lock(id, "USDT_TRC20")).status).toBe(200);
      const orderId = `cc-${sub}`;
      const expected = new Big(
        String((await upstreamInvoice(orderId)).body.data.cryptoAmountExpected),
      );
      // 97 % arrives: within the 5 % tolerance the order is paid, the merchant told once.
      expect((await simulate(orderId, "partial", expected.times("0.97").toFixed(2))).status).toBe(
        200,
      );
      await deliverAll(orderId);
      expect((await ledgerOf(sub)).state).toBe("paid");
      expect(await paidNotes(sub)).toHaveLength(1);
      // The merchant lowers the tolerance (a new deploy); the invoice expires at the service.
      await setTolerance(id, "0");
      expect((await simulate(orderId, "expire")).status).toBe(200);
      await deliverAll(orderId);
      const after = await ledgerOf(sub);
      expect([after.state, after.amountDue]).toEqual(["paid", "0.00"]);
      const retry = await postJson(`/v1/checkouts/${id}/retry`, {});
      expect(retry.status).toBe(409);
      expect(await paidNotes(sub)).toHaveLength(1);
    } finally {
      await setTolerance(id, undefined);
    }
  });
});

describe("a retry whose create answer was lost, then more money lands on the ended attempt", () => {
  it("the next retry still opens an attempt for what is due (the lost attempt's orderId holds the old amount)", {
    timeout: 30_000,
  }, async () => {
    const { sub, id, orderId } = await paidOrder("partial", "20", { label: "lostretry" });
    await markEnded(id);
    // The service makes attempt 2 (29.90) on every try, but no answer reaches the worker.
    await fault({ path: "/invoice", method: "POST", mode: "drop", times: 3 });
    const lost = await postJson(`/v1/checkouts/${id}/retry`, {});
    expect(lost.status).toBeGreaterThanOrEqual(500);
    expect((await upstreamInvoice(`${orderId}-2`)).status).toBe(200);
    // 10 more arrive late on attempt 1: 19.90 is due now, not 29.90. (The sandbox takes no
    // second partial payment; the ledger is written as applying that read would write it.)
    await runInDurableObject(env.ORDERS.get(env.ORDERS.idFromName(id)), (o: OrderObject) => {
      o.store.sql.exec(
        "UPDATE attempts SET crypto_received = '30', crypto_applied = '30', fiat_applied = '30.00' WHERE number = 1",
      );
    });
    expect((await ledgerOf(sub)).amountDue).toBe("19.90");
    const again = await postJson(`/v1/checkouts/${id}/retry`, {});
    const body = (await again.json()) as Snap;
    expect(body.error?.code, "the retry was refused").toBeUndefined();
    expect([again.status, body.data.amountDue, body.data.orderState]).toEqual([
      200,
      "19.90",
      "partially_paid",
    ]);
    const attempt = (await ledgerOf(sub)).attempts.at(-1)!;
    expect([attempt.fiatAmount, attempt.status]).toEqual(["19.90", "created"]);
    // The service holds that attempt's invoice, for exactly what is due.
    const service = (await upstreamInvoice(attempt.orderId)).body.data;
    expect([service.id, String(service.amount)]).toEqual([attempt.invoiceId, "19.9"]);
  });
});

describe("an order paid by late money on an ended attempt while the next attempt is open", () => {
  it("locking a currency on the open attempt is refused: no address is offered for a paid order", {
    timeout: 20_000,
  }, async () => {
    const { sub, id, orderId } = await paidOrder("partial", "20", { label: "paidlock" });
    await markEnded(id);
    expect((await postJson(`/v1/checkouts/${id}/retry`, {})).status).toBe(200);
    // The rest lands late on attempt 1: the order is paid, attempt 2 is still open upstream.
    expect((await simulate(orderId, "paid")).status).toBe(200);
    await deliverAll(orderId);
    expect((await ledgerOf(sub)).state).toBe("paid");
    const locked = await lock(id, "USDT_TRC20");
    expect([locked.status, locked.body.error?.code]).toEqual([409, "order_paid"]);
    // Nothing was locked at the service: attempt 2 offers no address to pay.
    expect((await upstreamInvoice(`${orderId}-2`)).body.data.address).toBeNull();
  });
});
