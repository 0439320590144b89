import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import {
  deliver,
  deliverAll,
  deliveriesFor,
  openCheckout,
  postJson,
  restamped,
  STOREFRONT,
  simulate,
  stampOf,
  uniqueSub,
  worker,
} from "./helpers.ts";
import { readFrames } from "./sse-frames.ts";

async function locked(amount = "20.00") {
  const sub = uniqueSub("sse");
  const { body } = await openCheckout({ sub, amount });
  await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
  return { id: body.data.id, orderId: `cc-${sub}` };
}

describe("GET /v1/checkouts/:id/events", () => {
  it("starts with the current snapshot, with SSE headers and CORS for the storefront", async () => {
    const { id } = await locked();
    const res = await worker(`/v1/checkouts/${id}/events`, { headers: { origin: STOREFRONT } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(res.headers.get("access-control-allow-origin")).toBe(STOREFRONT);
    const { frames } = await readFrames<CheckoutSnapshot>(res, 1);
    expect(frames[0]!.data.id).toBe(id);
    expect(frames[0]!.data.attempt.payment?.cryptoCurrencyCode).toBe("USDT_TRC20");
    expect(frames[0]!.id).toBe(frames[0]!.data.seq);
  });

  it("pushes each state change to an open stream, then closes after the final one", async () => {
    const { id, orderId } = await locked();
    const res = await worker(`/v1/checkouts/${id}/events`);
    const reading = readFrames<CheckoutSnapshot>(res, 10);
    // Each webhook makes the worker refetch the invoice, so deliver between the two moves.
    await simulate(orderId, "processing");
    await deliverAll(orderId);
    await simulate(orderId, "paid");
    await deliverAll(orderId);
    const { frames, ended } = await reading;
    const statuses = frames.map((f) => f.data.attempt.status);
    expect(statuses[0]).toBe("created");
    expect(statuses).toContain("processing");
    expect(statuses[statuses.length - 1]).toBe("paid");
    expect(frames[frames.length - 1]!.data.final).toBe(true);
    expect(ended).toBe(true);
    // Ids strictly increase.
    expect(frames.map((f) => f.id)).toEqual([...frames.map((f) => f.id)].sort((a, b) => a - b));
  });

  it("replays exactly what was missed after Last-Event-ID", async () => {
    const { id, orderId } = await locked();
    const first = await readFrames<CheckoutSnapshot>(await worker(`/v1/checkouts/${id}/events`), 1);
    const seen = first.frames[0]!.id;
    // The connection is cut; meanwhile the payment is detected and confirmed.
    await simulate(orderId, "processing");
    await deliverAll(orderId);
    await simulate(orderId, "paid");
    await deliverAll(orderId);
    const resumed = await readFrames<CheckoutSnapshot>(
      await worker(`/v1/checkouts/${id}/events`, { headers: { "last-event-id": String(seen) } }),
      10,
    );
    const ids = resumed.frames.map((f) => f.id);
    expect(ids[0]).toBe(seen + 1);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => seen + 1 + i));
    expect(resumed.frames.map((f) => f.data.attempt.status)).toContain("processing");
    expect(resumed.frames[resumed.frames.length - 1]!.data.attempt.status).toBe("paid");
    expect(resumed.ended).toBe(true);
    // The query fallback works the same way.
    const viaQuery = await readFrames<CheckoutSnapshot>(
      await worker(`/v1/checkouts/${id}/events?lastEventId=${seen}`),
      10,
    );
    expect(viaQuery.frames.map((f) => f.id)).toEqual(ids);
  });

  it("answers 204 to a reconnect after the final event, so EventSource stops", async () => {
    const { id, orderId } = await locked();
    await simulate(orderId, "paid");
    await deliverAll(orderId);
    const final = await readFrames<CheckoutSnapshot>(await worker(`/v1/checkouts/${id}/events`), 1);
    expect(final.frames[0]!.data.final).toBe(true);
    expect(final.ended).toBe(true);
    const again = await worker(`/v1/checkouts/${id}/events`, {
      headers: { "last-event-id": String(final.frames[0]!.id) },
    });
    expect(again.status).toBe(204);
  });

  it("a delivery that changes nothing after the final event appends none: the reconnect still gets 204 (issue 20 item 6)", async () => {
    const { id, orderId } = await locked();
    await simulate(orderId, "paid");
    const hooks = await deliveriesFor(orderId);
    const paid = hooks.at(-1)!;
    expect((await deliver(paid)).status).toBe(200);
    const final = await readFrames<CheckoutSnapshot>(await worker(`/v1/checkouts/${id}/events`), 1);
    expect(final.frames[0]!.data.final).toBe(true);
    // Not duplicates (other bytes): the older `processing`, and `paid` sent again a moment later.
    expect((await deliver(hooks[0]!)).status).toBe(200);
    const later = new Date(Date.parse(stampOf(paid)) + 1).toISOString();
    expect(await (await deliver(await restamped(paid, later))).json()).toEqual({
      received: true,
      duplicate: false,
    });
    const again = await worker(`/v1/checkouts/${id}/events`, {
      headers: { "last-event-id": String(final.frames[0]!.id) },
    });
    expect(again.status).toBe(204);
  });

  it("answers 404 for an unknown checkout", async () => {
    const res = await worker("/v1/checkouts/BBBBBBBBBBBBBBBBBBBBBB/events");
    expect(res.status).toBe(404);
  });
});
