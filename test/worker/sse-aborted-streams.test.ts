/**
 * Issue 20, item 13: nothing is kept per aborted stream. Hundreds of streams that connect and
 * abort at once (cancelled before reading anything, or after the opening snapshot, or aborted
 * by the client's signal while the request is in flight) all leave the order's hub: it ends
 * with no subscriber, no heartbeat timer (`watched()` false), and a later watcher is served as
 * usual. Memory over many rounds is the bench's figure (`scripts/bench/abort-rounds.ts`).
 */
import { describe, expect, it } from "vitest";
import { openCheckout, uniqueSub, worker } from "./helpers.ts";
import { hubState as hubOf, hubUntil } from "./sse-frames.ts";

const drained = (checkoutId: string) => hubUntil(checkoutId, (w) => w.size === 0);

describe("aborted streams leave nothing behind (issue 20, item 13)", () => {
  it("300 connect-and-abort streams in three ways: the hub forgets every one", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("abort"), amount: "20.00" });
    const id = body.data.id;
    const events = `/v1/checkouts/${id}/events`;
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          if (i % 3 === 0) {
            // Cancelled before anything was read.
            const res = await worker(events);
            await res.body!.cancel();
          } else if (i % 3 === 1) {
            // The opening snapshot read, then gone.
            const res = await worker(events);
            const reader = res.body!.getReader();
            await reader.read();
            await reader.cancel();
          } else {
            // Aborted by the client while connecting or right after.
            const abort = new AbortController();
            const pending = worker(events, { signal: abort.signal });
            abort.abort();
            const res = await pending.catch(() => null);
            await res?.body?.cancel().catch(() => {});
          }
        }),
      );
      expect(await drained(id), `round ${round}`).toEqual({ size: 0, watched: false });
    }
    // A watcher after all that is served and counted as usual.
    const res = await worker(events);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    expect(await hubOf(id)).toEqual({ size: 1, watched: true });
    await reader.cancel();
    expect(await drained(id)).toEqual({ size: 0, watched: false });
  });
});
