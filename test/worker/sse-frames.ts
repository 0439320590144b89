/**
 * Reads server-sent events from a worker response in tests: snapshots until `count` arrived
 * or the stream ended, and whether the server closed the stream right after; and the state of
 * an order's streams in its stream hub.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { hubOf } from "../support/stream-hubs.ts";
import type { OrderObject, StreamHubObject } from "../support/worker-entry.ts";

export interface Frame<T> {
  id: number;
  data: T;
}

export async function readFrames<T>(
  res: Response,
  count: number,
): Promise<{ frames: Frame<T>[]; ended: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const frames: Frame<T>[] = [];
  let ended = false;
  while (frames.length < count) {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id && data) frames.push({ id: Number(id), data: JSON.parse(data) as T });
      cut = buffer.indexOf("\n\n");
    }
  }
  if (!ended) {
    // Final streams close shortly after their last event (a grace of 100 ms + 2 ms per
    // watcher, see worker/order/sse.ts): check for that.
    const next = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), 500)),
    ]);
    ended = next !== null && next.done === true;
  }
  await reader.cancel().catch(() => {});
  return { frames, ended };
}

/**
 * An order's streams as the reconciliation sees them: open streams in its stream hub
 * (`worker/core/streams/`), once the hub's "unwatched" message (if one is in flight) reached
 * the order, and whether the order is watched.
 */
export async function hubState(checkoutId: string): Promise<{ size: number; watched: boolean }> {
  const stub = env.ORDERS.get(env.ORDERS.idFromName(checkoutId));
  const key = `order:${stub.id.toString()}`;
  const hub = hubOf(checkoutId);
  const size = await runInDurableObject(hub, async (h: StreamHubObject) => {
    await h.settled();
    return h.streams(key);
  });
  return runInDurableObject(stub, (order: OrderObject) => ({
    size,
    // What the reconciliation schedule reads: the object's host (`core/events/object-host.ts`).
    watched: order.host.watched(),
  }));
}

/** Polls the hub until `done` holds (at most ~3 s, far below a 15 s heartbeat). */
export async function hubUntil(checkoutId: string, done: (w: { size: number }) => boolean) {
  let state = await hubState(checkoutId);
  for (let i = 0; i < 60 && !done(state); i++) {
    await new Promise((r) => setTimeout(r, 50));
    state = await hubState(checkoutId);
  }
  return state;
}
