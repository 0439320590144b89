/**
 * The stream hubs (`worker/core/streams/`): a watched checkout's streams live in its hub, not in
 * its own object. The order restarted while watched (as an eviction would) still delivers every
 * event; a hub that restarts ends its streams and a reconnect with `Last-Event-ID` misses
 * nothing; a restarted hub nobody reconnects to tells the order it is unwatched (its orphan
 * sweep); watched and unwatched reach the reconciler's registration.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { expectedFault } from "../expected-faults.ts";
import { hubOf } from "../support/stream-hubs.ts";
import type { OrderObject, StreamHubObject } from "../support/worker-entry.ts";
import {
  deliverAll,
  deploymentReconciler,
  openCheckout,
  postJson,
  simulate,
  uniqueSub,
  worker,
} from "./helpers.ts";
import { hubUntil, readFrames } from "./sse-frames.ts";

const orderOf = (id: string) => env.ORDERS.get(env.ORDERS.idFromName(id));

async function locked() {
  const sub = uniqueSub("hub");
  const { body } = await openCheckout({ sub, amount: "20.00" });
  await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
  return { id: body.data.id as string, orderId: `cc-${sub}` };
}

/** A stream read frame by frame, left open between reads. */
function openReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    /** The next frame's id, or null when the stream ended (or broke). */
    async next(): Promise<number | null> {
      for (;;) {
        const cut = buffer.indexOf("\n\n");
        if (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          if (id) return Number(id);
          continue;
        }
        const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (chunk.done) return null;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/** The order's watched state and its registration's at the reconciler, once settled. */
async function watchedState(id: string): Promise<{ order: boolean; reconciler: boolean }> {
  const stub = orderOf(id);
  const order = await runInDurableObject(stub, async (o: OrderObject) => {
    await o.registrationsSettled();
    return o.host.watched();
  });
  const owner = stub.id.toString();
  const rows = await runInDurableObject(deploymentReconciler(), (_r, state: DurableObjectState) =>
    state.storage.sql.exec("SELECT watched FROM tracked WHERE owner = ?", owner).toArray(),
  );
  expect(rows.length).toBeGreaterThan(0);
  return { order, reconciler: rows.every((r) => Number(r.watched) === 1) };
}

/** Polls `watchedState` until the order's watched state is `order` (the relay is async). */
async function watchedBecomes(id: string, order: boolean) {
  let state = await watchedState(id);
  for (let i = 0; i < 60 && state.order !== order; i++) {
    await new Promise((r) => setTimeout(r, 50));
    state = await watchedState(id);
  }
  return state;
}

async function abortHub(id: string, why: string) {
  await runInDurableObject(hubOf(id), (_h, state) => state.abort(expectedFault(why))).catch(
    () => {},
  );
}

describe("stream hubs hold the watchers' streams", () => {
  it("a watched order holds no stream: restarted while watched (as an eviction would), it still delivers every event through its hub", async () => {
    const { id, orderId } = await locked();
    const res = await worker(`/v1/checkouts/${id}/events`);
    const reading = readFrames<CheckoutSnapshot>(res, 10);
    expect(await hubUntil(id, (w) => w.size === 1)).toEqual({ size: 1, watched: true });
    // The order's own object goes away; its watcher's stream is not in it.
    await runInDurableObject(orderOf(id), (_o, state) =>
      state.abort(expectedFault("order evicted while watched")),
    ).catch(() => {});
    expect(await watchedState(id)).toEqual({ order: true, reconciler: true });
    await simulate(orderId, "processing");
    await deliverAll(orderId);
    await simulate(orderId, "paid");
    await deliverAll(orderId);
    const { frames, ended } = await reading;
    const statuses = frames.map((f) => f.data.attempt.status);
    expect(statuses[0]).toBe("created");
    expect(statuses).toContain("processing");
    expect(statuses.at(-1)).toBe("paid");
    expect(ended).toBe(true);
    const ids = frames.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("a hub that restarts ends its streams; the reconnect with Last-Event-ID is replayed the event it missed", async () => {
    const { id, orderId } = await locked();
    const stream = openReader(await worker(`/v1/checkouts/${id}/events`));
    const seen = await stream.next();
    expect(seen).not.toBeNull();
    await abortHub(id, "stream hub restart");
    // The hub's streams ended with it (the widget's EventSource then reconnects).
    expect(await stream.next()).toBeNull();
    // An event while no stream is open: the restarted hub holds none, so the order stops
    // publishing and is no longer watched.
    await simulate(orderId, "processing");
    await deliverAll(orderId);
    expect(await watchedBecomes(id, false)).toEqual({ order: false, reconciler: false });
    const again = openReader(
      await worker(`/v1/checkouts/${id}/events`, { headers: { "last-event-id": String(seen) } }),
    );
    const missed = await again.next();
    expect(missed).toBe(seen! + 1);
    expect(await watchedState(id)).toEqual({ order: true, reconciler: true });
    // Live again through the new hub instance: the next event arrives once, in order.
    await simulate(orderId, "paid");
    await deliverAll(orderId);
    expect(await again.next()).toBe(missed! + 1);
    await again.cancel();
  });

  it("a restarted hub nobody reconnects to tells the order it is unwatched (its orphan sweep)", async () => {
    const { id } = await locked();
    const stream = openReader(await worker(`/v1/checkouts/${id}/events`));
    expect(await stream.next()).not.toBeNull();
    expect(await watchedState(id)).toEqual({ order: true, reconciler: true });
    await abortHub(id, "stream hub crash");
    expect(await stream.next()).toBeNull();
    // No event, no reconnect: only the hub's alarm can tell the order.
    expect(await watchedState(id)).toEqual({ order: true, reconciler: true });
    expect(await runDurableObjectAlarm(hubOf(id))).toBe(true);
    await runInDurableObject(hubOf(id), (h: StreamHubObject) => h.settled());
    expect(await watchedState(id)).toEqual({ order: false, reconciler: false });
  });

  it("the first watcher registers the order as watched at the reconciler, the last to leave as unwatched", async () => {
    const { id } = await locked();
    expect(await watchedState(id)).toEqual({ order: false, reconciler: false });
    const first = openReader(await worker(`/v1/checkouts/${id}/events`));
    const second = openReader(await worker(`/v1/checkouts/${id}/events`));
    expect(await first.next()).not.toBeNull();
    expect(await second.next()).not.toBeNull();
    expect(await watchedState(id)).toEqual({ order: true, reconciler: true });
    await first.cancel();
    expect(await hubUntil(id, (w) => w.size < 2)).toEqual({ size: 1, watched: true });
    expect(await watchedState(id)).toEqual({ order: true, reconciler: true });
    await second.cancel();
    expect(await hubUntil(id, (w) => w.size < 1)).toEqual({ size: 0, watched: false });
    expect(await watchedState(id)).toEqual({ order: false, reconciler: false });
  });
});
