/**
 * Adversarial regressions (issue 10) on currency locks, retries and the order's terms:
 * interleavings the simulation does not draw. A lock whose answer was lost (or whose object was
 * reset mid-call), a lock on an order another attempt already paid, a retry whose answer was
 * lost before more money changed what is due, and the tolerance changing under an open order.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { checkoutIdFor } from "../../worker/lib/ids/checkout-id.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { expectedFault } from "../expected-faults.ts";
import { clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import { sleep } from "../support/wait.ts";
import {
  deliverAll,
  fault,
  ledgerOf,
  openCheckout,
  postJson,
  sandbox,
  simulate,
  upstreamInvoice,
} from "./helpers.ts";
import { lockCurrency as lock, lockedCheckout, markEnded, paidOrder, type Snap } from "./orders.ts";

const LOCK_PATH = "/x-sandbox/invoice/lock-currency";

clearFaultsAfterEach();

const paidNotes = async (sub: string) =>
  (await ledgerOf(sub)).notifications.filter((n) => n.type === "order.paid");

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
    await runInDurableObject(stub, (_o, state) => state.abort(expectedFault("reset"))).catch(
      () => {},
    );
    expect((await inFlight).status).toBe(503);
    expect((await upstreamInvoice(orderId)).body.data.cryptoCurrencyCode).toBe("TRX");
    const back = await lock(id, "USDT_TRC20");
    expect(back.status).toBe(200);
    const service = (await upstreamInvoice(orderId)).body.data;
    expect(back.body.data.attempt.payment?.cryptoCurrencyCode).toBe(service.cryptoCurrencyCode);
    expect(back.body.data.attempt.payment?.address).toBe(service.address);
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
    // Nothing was locked at the service: attempt 2 offers no address to pay (the service omits
    // the field until a currency is locked: SDK `Invoice.address?`).
    expect((await upstreamInvoice(`${orderId}-2`)).body.data).not.toHaveProperty("address");
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

describe("a retry whose next orderId another order's invoice holds", () => {
  it("skips to the next number instead of refusing the shopper (order_id_collision)", {
    timeout: 30_000,
  }, async () => {
    const { sub, id, orderId } = await paidOrder("partial", "20", { label: "takenretry" });
    await markEnded(id);
    // Order "<sub>-2" (an invoice number ending in -2) already made `<orderId>-2` at the
    // service, for the very amount now due: the service hands that invoice back to our retry.
    const other = await sandbox("/invoice", {
      method: "POST",
      headers: { "content-type": "application/json", "x-tenant-api-key": env.API_KEY as string },
      body: JSON.stringify({
        accountId: env.ACCOUNT_ID,
        orderId: `${orderId}-2`,
        amount: 29.9,
        fiatCurrencyCode: "USD",
      }),
    });
    expect(other.status).toBe(201);
    const retried = await postJson(`/v1/checkouts/${id}/retry`, {});
    const body = (await retried.json()) as Snap;
    expect(body.error?.code, "the retry was refused").toBeUndefined();
    expect(retried.status).toBe(200);
    const attempt = (await ledgerOf(sub)).attempts.at(-1)!;
    expect([attempt.number, attempt.orderId, attempt.fiatAmount]).toEqual([
      3,
      `${orderId}-3`,
      "29.90",
    ]);
    // The other order's invoice was never adopted.
    const taken = (await upstreamInvoice(`${orderId}-2`)).body.data;
    expect(taken.id).not.toBe(attempt.invoiceId);
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
