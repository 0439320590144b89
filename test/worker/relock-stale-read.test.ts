/**
 * Issue 20, item 2: after a shopper re-locks (BTC → ETH), a lagging read of the invoice that
 * still shows the replaced currency, with the same status and nothing received, must change
 * nothing: the lock's answer is a fact an older read cannot undo. The lagging read is made with
 * the sandbox's `stale` fault, answering the invoice as a (test) webhook recorded it while BTC
 * was locked.
 */
import Big from "big.js";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../worker/api/contract.ts";
import {
  deliver,
  deliveriesFor,
  fault,
  ledgerOf,
  openCheckout,
  sandbox,
  simulate,
  uniqueSub,
  upstreamInvoice,
  worker,
} from "./helpers.ts";
import { lockCurrency as lock } from "./orders.ts";

afterEach(async () => {
  await sandbox("/sandbox/faults", { method: "DELETE" });
});

async function snapshot(id: string): Promise<CheckoutSnapshot> {
  return ((await (await worker(`/v1/checkouts/${id}`)).json()) as { data: CheckoutSnapshot }).data;
}

/**
 * Locks `from` then `to` on a new checkout; before the second lock the sandbox records the
 * invoice as it stood (a test webhook carrying it), so a `stale` read can answer it later.
 */
async function relocked(from: string, to: string) {
  const sub = uniqueSub("relock");
  const { body } = await openCheckout({ sub, amount: "49.90" });
  const id = body.data.id;
  const orderId = `cc-${sub}`;
  expect((await lock(id, from)).status).toBe(200);
  const old = (await upstreamInvoice(orderId)).body.data;
  expect(old.cryptoCurrencyCode).toBe(from);
  await sandbox("/sandbox/test-webhook", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ event: "invoice.statusChanged", data: old }),
  });
  const relock = await lock(id, to);
  expect(relock.status).toBe(200);
  const service = (await upstreamInvoice(orderId)).body.data;
  expect(service.cryptoCurrencyCode).toBe(to);
  return { sub, id, orderId, old, service };
}

/** Delivers the recorded webhook; its refetch answers the invoice as it was before the re-lock. */
async function laggingRead(orderId: string) {
  await fault({
    path: "/invoice",
    method: "GET",
    mode: "stale",
    asStatus: "created",
    scope: orderId,
    times: 1,
  });
  const recorded = (await deliveriesFor(orderId)).at(-1)!;
  return deliver(recorded);
}

describe("a lagging read after a re-lock (issue 20, item 2)", () => {
  for (const [from, to] of [
    ["BTC", "ETH"],
    ["USDT_TRC20", "TRX"],
  ] as const) {
    it(`${from} → ${to}: a read still showing ${from} (same status, nothing received) changes neither ledger nor widget`, async () => {
      const { sub, id, orderId, old, service } = await relocked(from, to);
      const res = await laggingRead(orderId);
      expect(res.status).toBe(200);
      // The fault was used: the worker did read the old terms.
      expect((await sandbox<{ data: unknown[] }>("/sandbox/faults")).body.data).toHaveLength(0);

      const attempt = (await ledgerOf(sub)).attempts[0]!;
      expect(attempt.cryptoCurrencyCode).toBe(to);
      expect(new Big(attempt.cryptoExpected!).eq(String(service.cryptoAmountExpected))).toBe(true);
      const payment = (await snapshot(id)).attempt.payment!;
      expect(payment.cryptoCurrencyCode).toBe(to);
      expect(payment.address).toBe(service.address);
      expect(payment.address).not.toBe(old.address);
      expect(new Big(payment.amount).eq(String(service.cryptoAmountExpected))).toBe(true);
    });
  }

  it("a read that shows progress is newer than the lock: the service's next read still applies", async () => {
    const { sub, orderId } = await relocked("BTC", "ETH");
    await laggingRead(orderId);
    await simulate(orderId, "processing");
    const latest = (await deliveriesFor(orderId)).at(-1)!;
    expect((await deliver(latest)).status).toBe(200);
    const attempt = (await ledgerOf(sub)).attempts[0]!;
    expect(attempt).toMatchObject({ status: "processing", cryptoCurrencyCode: "ETH" });
  });
});
