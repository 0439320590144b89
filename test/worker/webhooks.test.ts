import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import {
  deliver,
  deliverAll,
  deliveriesFor,
  fault,
  faultsLeftFor,
  hmacHex,
  ledgerOf,
  postJson,
  sandbox,
  simulate,
  upstreamRequests,
  withoutRecord,
  worker,
} from "./helpers.ts";
import { lockedCheckout } from "./orders.ts";

const signingKey = env.WEBHOOK_SIGNING_KEY as string;

/**
 * An open checkout with USDT (TRC-20) locked and nothing paid yet: each test then has the
 * sandbox pay it (in full, in part, …) and delivers the webhooks it wants.
 */
async function lockedOrder(amount = "49.90") {
  const { sub, id, orderId, snapshot: data } = await lockedCheckout(amount, "wh");
  expect(data.attempt.payment?.cryptoCurrencyCode).toBe("USDT_TRC20");
  expect(data.attempt.payment?.address).toBeTruthy();
  expect(data.orderState).toBe("unpaid");
  return { sub, id, orderId };
}

describe("POST /webhooks/payment: refusals store nothing", () => {
  it.each([
    ["no signature", undefined, 401, "signature_missing"],
    ["a blank signature", "   ", 401, "signature_missing"],
    ["a malformed signature", "not-hex", 401, "signature_malformed"],
    ["a wrong signature", "a".repeat(64), 401, "signature_invalid"],
  ])("refuses %s", async (_what, signature, status, code) => {
    const { sub, orderId } = await lockedOrder();
    await simulate(orderId, "paid");
    const [first] = await deliveriesFor(orderId);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (signature !== undefined) headers["x-webhook-signature"] = signature;
    const res = await worker("/webhooks/payment", { method: "POST", headers, body: first!.body });
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    expect((await ledgerOf(sub)).state).toBe("unpaid");
  });

  it("refuses a body changed after signing (re-serialised JSON does not verify)", async () => {
    const { sub, orderId } = await lockedOrder();
    await simulate(orderId, "paid");
    const [first] = await deliveriesFor(orderId);
    const reserialised = JSON.stringify(JSON.parse(first!.body), null, 1);
    const res = await deliver({ body: reserialised, signature: first!.signature });
    expect(res.status).toBe(401);
    expect((await ledgerOf(sub)).state).toBe("unpaid");
  });

  it("refuses an oversized body with 413, invalid JSON with 400, a bad envelope with 422", async () => {
    const big = "x".repeat(70 * 1024);
    expect((await deliver({ body: big, signature: await hmacHex(signingKey, big) })).status).toBe(
      413,
    );
    const notJson = "{not json";
    const bad = await deliver({ body: notJson, signature: await hmacHex(signingKey, notJson) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
    const wrongShape = JSON.stringify({ event: "invoice.statusChanged", data: "nope" });
    const shape = await deliver({
      body: wrongShape,
      signature: await hmacHex(signingKey, wrongShape),
    });
    expect(shape.status).toBe(422);
    expect(((await shape.json()) as { error: { code: string } }).error.code).toBe("schema_invalid");
  });

  it("acknowledges a verified unknown event whatever the shape of its data (no 422 forever)", async () => {
    for (const data of ["text", null, [1, 2]]) {
      const body = JSON.stringify({ event: "invoice.refunded", data });
      const res = await deliver({ body, signature: await hmacHex(signingKey, body) });
      expect(res.status).toBe(202);
    }
  });

  it("reads a body without content-length with a byte cap (413 without waiting for its end)", async () => {
    const chunk = new Uint8Array(16 * 1024).fill(120);
    let sent = 0;
    // 80 KiB then the stream stays open: an uncapped read would wait forever.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent < 5) {
          sent += 1;
          controller.enqueue(chunk);
        }
      },
    });
    const res = await worker("/webhooks/payment", {
      method: "POST",
      headers: { "x-webhook-signature": "a".repeat(64) },
      body: stream,
      // @ts-expect-error: workerd's RequestInit accepts duplex for streaming bodies
      duplex: "half",
    });
    expect(res.status).toBe(413);
  });

  it("acknowledges verified events it does not handle, and unknown orders, with 202", async () => {
    const other = JSON.stringify({
      event: "x402.settled",
      data: {},
      timestamp: new Date().toISOString(),
    });
    const res = await deliver({ body: other, signature: await hmacHex(signingKey, other) });
    expect(res.status).toBe(202);
    const unknown = JSON.stringify({
      event: "invoice.statusChanged",
      data: { id: "inv_unknown", orderId: "cc-nobody", status: "paid" },
      timestamp: new Date().toISOString(),
    });
    const res2 = await deliver({ body: unknown, signature: await hmacHex(signingKey, unknown) });
    expect(res2.status).toBe(202);
    expect(((await res2.json()) as { ignored: string }).ignored).toBe("unknown order");
  });
});

describe("webhooks apply the gateway-module table exactly once", () => {
  it("pays the order in full; a duplicate delivery changes nothing", async () => {
    const { sub, id, orderId } = await lockedOrder();
    await simulate(orderId, "paid");
    const statuses = await deliverAll(orderId);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const once = await ledgerOf(sub);
    expect(once.state).toBe("paid");
    expect(once.amountPaid).toBe("49.90");
    expect(once.amountDue).toBe("0.00");
    expect(once.payments).toHaveLength(1);
    expect(once.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);

    const all = await deliveriesFor(orderId);
    const again = await deliver(all[all.length - 1]!);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { duplicate: boolean }).duplicate).toBe(true);
    const twice = await ledgerOf(sub);
    expect(twice.payments).toHaveLength(1);
    expect(twice.notifications).toHaveLength(once.notifications.length);

    const snap = (
      (await (await worker(`/v1/checkouts/${id}`)).json()) as { data: CheckoutSnapshot }
    ).data;
    expect(snap.orderState).toBe("paid");
    expect(snap.final).toBe(true);
  });

  it("a replayed older delivery (processing after paid) cannot move the order back", async () => {
    const { sub, orderId } = await lockedOrder();
    await simulate(orderId, "paid");
    const all = await deliveriesFor(orderId);
    // Deliver newest first, then the older `processing` one.
    for (const d of [...all].reverse()) await deliver(d);
    const l = await ledgerOf(sub);
    expect(l.state).toBe("paid");
    expect(l.attempts[0]!.status).toBe("paid");
  });

  it("partial on attempt 1, then the rest on attempt 2, sums exactly to the order amount", async () => {
    const { sub, id, orderId } = await lockedOrder("100.00");
    const locked = (
      (await (await worker(`/v1/checkouts/${id}`)).json()) as { data: CheckoutSnapshot }
    ).data;
    const expected = locked.attempt.payment!.amount; // USDT at 1:1 → 100 USDT
    await simulate(orderId, "partial", "40");
    await deliverAll(orderId);
    const partial = await ledgerOf(sub);
    expect(partial.state).toBe("partially_paid");
    expect(partial.amountPaid).toBe("40.00");
    expect(partial.amountDue).toBe("60.00");
    expect(expected).toMatch(/^100(\.0+)?$/);

    await simulate(orderId, "expire");
    await deliverAll(orderId);
    const retry = await worker(`/v1/checkouts/${id}/retry`, { method: "POST" });
    expect(retry.status).toBe(200);
    const snap2 = ((await retry.json()) as { data: CheckoutSnapshot }).data;
    expect(snap2.attempt.orderId).toBe(`${orderId}-2`);
    expect(snap2.amountDue).toBe("60.00");
    await postJson(`/v1/checkouts/${id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
    await simulate(`${orderId}-2`, "paid");
    await deliverAll(`${orderId}-2`);
    const done = await ledgerOf(sub);
    expect(done.state).toBe("paid");
    expect(done.amountPaid).toBe("100.00");
    expect(done.payments.map((p) => p.fiatAmount)).toEqual(["40.00", "60.00"]);
    expect(done.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
  });

  it("a partial payment first read after the invoice expired is applied; the retry asks only the rest", async () => {
    const { sub, id, orderId } = await lockedOrder("100.00");
    await simulate(orderId, "partial", "40");
    await simulate(orderId, "expire");
    // Every delivery's refetch already sees `expired` with 40 received.
    expect((await deliverAll(orderId)).every((s) => s === 200)).toBe(true);
    const l = await ledgerOf(sub);
    expect(l.state).toBe("partially_paid");
    expect(l.amountPaid).toBe("40.00");
    expect(l.payments.map((p) => p.fiatAmount)).toEqual(["40.00"]);
    // The attempt shows the service's status; its money is booked like a partial payment.
    expect(l.attempts[0]).toMatchObject({ status: "expired", ended: true, fiatApplied: "40.00" });
    const retry = await worker(`/v1/checkouts/${id}/retry`, { method: "POST" });
    expect(retry.status).toBe(200);
    const snap = ((await retry.json()) as { data: CheckoutSnapshot }).data;
    expect(snap.attempt.orderId).toBe(`${orderId}-2`);
    expect(snap.amountDue).toBe("60.00");
  });

  it("a delivery without a whole invoice is a prompt: 503 when the invoice cannot be fetched, applied on the retry", async () => {
    const { sub, orderId } = await lockedOrder();
    await simulate(orderId, "paid");
    const all = await deliveriesFor(orderId);
    const id = String(JSON.parse(all[0]!.body).data.id);
    const prompt = await withoutRecord(all[all.length - 1]!);
    const reads = async () =>
      (await upstreamRequests("/invoice", "GET")).filter((r) => r.query.id === id).length;
    const before = await reads();
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "status",
      status: 500,
      times: 1,
      scope: orderId,
    });
    const failed = await deliver(prompt);
    expect(failed.status).toBe(503);
    // One short read, no retries: the service retries the delivery instead.
    expect((await reads()) - before).toBe(1);
    expect((await ledgerOf(sub)).state).toBe("unpaid");
    const ok = await deliver(prompt);
    expect(ok.status).toBe(200);
    expect((await ledgerOf(sub)).state).toBe("paid");
  });

  it("a delivery's whole invoice is a read: applied with no upstream call, even while reads fail", async () => {
    const { sub, orderId } = await lockedOrder();
    await simulate(orderId, "paid");
    const all = await deliveriesFor(orderId);
    const id = String(JSON.parse(all[0]!.body).data.id);
    const reads = async () =>
      (await upstreamRequests("/invoice", "GET")).filter((r) => r.query.id === id).length;
    const before = await reads();
    // Every read of the service would fail or lag: the delivery needs none.
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "status",
      status: 500,
      times: 5,
      scope: orderId,
    });
    for (const d of all) expect((await deliver(d)).status).toBe(200);
    expect(await reads(), "no GET /invoice for deliveries whose data is whole").toBe(before);
    const l = await ledgerOf(sub);
    expect([l.state, l.attempts[0]!.status, l.payments.length]).toEqual(["paid", "paid", 1]);
    expect(l.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
    // The faults were never needed (that is the point): cleared, so none outlives the test.
    await sandbox(`/sandbox/faults?scope=${orderId}`, { method: "DELETE" });
    expect(await faultsLeftFor(orderId)).toEqual([]);
  });

  it("records an overpayment's fiat value", async () => {
    const { sub, orderId } = await lockedOrder("50.00");
    await simulate(orderId, "over", "5");
    await deliverAll(orderId);
    const l = await ledgerOf(sub);
    expect(l.state).toBe("paid");
    expect(l.amountPaid).toBe("50.00");
    expect(l.amountOverpaid).toBe("5.00");
  });
});
