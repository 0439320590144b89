/**
 * Issue 20, item 2: after a shopper re-locks (BTC → ETH), a lagging read of the invoice that
 * still shows the replaced currency, with the same status and nothing received, must change
 * nothing: the lock's answer is a fact an older read cannot undo. The lagging read is made with
 * the sandbox's `stale` fault, answering the invoice as a (test) webhook recorded it while BTC
 * was locked.
 */
import Big from "big.js";
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import {
  deliver,
  deliveriesFor,
  fault,
  faultsLeftFor,
  ledgerOf,
  openCheckout,
  sandbox,
  simulate,
  uniqueSub,
  upstreamInvoice,
  worker,
} from "./helpers.ts";
import { lockCurrency as lock } from "./orders.ts";

clearFaultsAfterEach();

async function snapshot(id: string): Promise<CheckoutSnapshot> {
  return ((await (await worker(`/v1/checkouts/${id}`)).json()) as { data: CheckoutSnapshot }).data;
}

/**
 * Locks `from` then `to` on a new checkout; before the second lock the sandbox records the
 * invoice as it stood (test webhooks), so a delivery or a `stale` read can answer it later.
 */
async function relocked(from: string, to: string) {
  const sub = uniqueSub("relock");
  const { body } = await openCheckout({ sub, amount: "49.90" });
  const id = body.data.id;
  const orderId = `cc-${sub}`;
  expect((await lock(id, from)).status).toBe(200);
  const old = (await upstreamInvoice(orderId)).body.data;
  expect(old.cryptoCurrencyCode).toBe(from);
  // Two deliveries of the old state: a prompt without the whole record (the worker refetches)
  // and, last, the whole record (the `stale` fault answers the last `created` one: this).
  for (const data of [{ id: old.id, orderId, status: old.status }, old])
    await sandbox("/sandbox/test-webhook", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ event: "invoice.statusChanged", data }),
    });
  const relock = await lock(id, to);
  expect(relock.status).toBe(200);
  const service = (await upstreamInvoice(orderId)).body.data;
  expect(service.cryptoCurrencyCode).toBe(to);
  return { sub, id, orderId, old, service };
}

/**
 * A lagging read of the old terms, reaching the worker one of two ways: `record`, the recorded
 * delivery whose signed `data` is the whole invoice as it was before the re-lock (a whole record
 * is a read, applied with no refetch); `refetch`, a delivery whose `data` is not a whole record,
 * so the worker refetches and the sandbox's `stale` fault answers the invoice as it was.
 */
async function laggingRead(orderId: string, via: "record" | "refetch") {
  const [prompt, record] = (await deliveriesFor(orderId)).slice(-2);
  if (via === "record") return deliver(record!);
  await fault({
    path: "/invoice",
    method: "GET",
    mode: "stale",
    asStatus: "created",
    scope: orderId,
    times: 1,
  });
  return deliver(prompt!);
}

describe("a lagging read after a re-lock (issue 20, item 2)", () => {
  for (const [from, to] of [
    ["BTC", "ETH"],
    ["USDT_TRC20", "TRX"],
  ] as const) {
    for (const via of ["record", "refetch"] as const)
      it(`${from} → ${to}: a read still showing ${from} (same status, nothing received, ${via}) changes neither ledger nor widget`, async () => {
        const { sub, id, orderId, old, service } = await relocked(from, to);
        const res = await laggingRead(orderId, via);
        expect(res.status).toBe(200);
        // A refetch used the fault: the worker did read the old terms.
        expect(await faultsLeftFor(orderId)).toHaveLength(0);

        const attempt = (await ledgerOf(sub)).attempts[0]!;
        expect(attempt.cryptoCurrencyCode).toBe(to);
        expect(new Big(attempt.cryptoExpected!).eq(String(service.cryptoAmountExpected))).toBe(
          true,
        );
        const payment = (await snapshot(id)).attempt.payment!;
        expect(payment.cryptoCurrencyCode).toBe(to);
        expect(payment.address).toBe(service.address);
        expect(payment.address).not.toBe(old.address);
        expect(new Big(payment.amount).eq(String(service.cryptoAmountExpected))).toBe(true);
      });
  }

  it("a read that shows progress is newer than the lock: the service's next read still applies", async () => {
    const { sub, orderId } = await relocked("BTC", "ETH");
    await laggingRead(orderId, "record");
    await simulate(orderId, "processing");
    const latest = (await deliveriesFor(orderId)).at(-1)!;
    expect((await deliver(latest)).status).toBe(200);
    const attempt = (await ledgerOf(sub)).attempts[0]!;
    expect(attempt).toMatchObject({ status: "processing", cryptoCurrencyCode: "ETH" });
  });
});
