/**
 * A shopper who closes the page stops being a watcher at once, not at the next heartbeat: the
 * order's hub loses the stream as soon as workerd cancels it (through the route's pass-through
 * to the Durable Object), so `watched()` — which keeps the invoice reads at the watched
 * cadence — turns false with it.
 */
import { describe, expect, it } from "vitest";
import { openCheckout, uniqueSub, worker } from "./helpers.ts";
import { hubUntil as until, hubState as watchers } from "./sse-frames.ts";

describe("a gone watcher", () => {
  it("leaves the hub as soon as its stream is cancelled, and the order is no longer watched", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("gone"), amount: "20.00" });
    const id = body.data.id;
    const first = await worker(`/v1/checkouts/${id}/events`);
    const second = await worker(`/v1/checkouts/${id}/events`);
    const readers = [first, second].map((res) => res.body!.getReader());
    // Both streams delivered their opening snapshot: both are subscribed.
    for (const reader of readers) expect((await reader.read()).done).toBe(false);
    expect(await watchers(id)).toEqual({ size: 2, watched: true });

    await readers[0]!.cancel();
    expect(await until(id, (w) => w.size < 2)).toEqual({ size: 1, watched: true });

    await readers[1]!.cancel();
    expect(await until(id, (w) => w.size < 1)).toEqual({ size: 0, watched: false });
  });
});
