/**
 * Issue 20, item 5: what one order's event log holds and what one replay sends are bounded.
 * `Last-Event-ID: 0` on a long log gets the current snapshot (as a fresh client), never the
 * whole history; a client at most `MAX_REPLAY_EVENTS` behind still gets exactly what it
 * missed; the log keeps at most `MAX_LOG_EVENTS` rows, only the replay window with snapshots.
 * The delivery dedupe table keeps the newest `MAX_REMEMBERED_DELIVERIES` (plus at most one
 * pruning step) and still recognises a recent duplicate.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import {
  MAX_LOG_EVENTS,
  MAX_REMEMBERED_DELIVERIES,
  MAX_REPLAY_EVENTS,
} from "../../worker/core/events/event-log.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { ledgerOf, openCheckout, uniqueSub, worker } from "./helpers.ts";

/** Appends `n` events to the order's log, each carrying the order's snapshot at its seq. */
function appendEvents(checkoutId: string, n: number) {
  const stub = env.ORDERS.get(env.ORDERS.idFromName(checkoutId));
  return runInDurableObject(stub, async (o: OrderObject) => {
    const view = await o.view();
    if (!view.ok) throw new Error("no order");
    for (let i = 0; i < n; i++) {
      o.host.log.append(
        "test.noise",
        `noise ${i}`,
        (seq) => JSON.stringify({ ...view.value, seq }),
        new Date().toISOString(),
      );
    }
    const rows = o.host.log.sql
      .exec<{ rows: number; kept: number; last: number }>(
        "SELECT COUNT(*) AS rows, SUM(snapshot != '') AS kept, MAX(seq) AS last FROM events",
      )
      .one();
    return { rows: Number(rows.rows), kept: Number(rows.kept), last: Number(rows.last) };
  });
}

/** The frames the stream opens with (written in one piece), by id. */
async function openingIds(checkoutId: string, lastEventId: string): Promise<number[]> {
  const res = await worker(`/v1/checkouts/${checkoutId}/events`, {
    headers: { "last-event-id": lastEventId },
  });
  expect(res.status).toBe(200);
  // The opening write may arrive in several chunks: read until the stream is quiet (no event
  // follows on its own here, and a heartbeat is 15 s away).
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const next = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), 300)),
    ]);
    if (next === null || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  await reader.cancel();
  return [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

describe("bounded replay and log (issue 20, item 5)", () => {
  it("Last-Event-ID: 0 on a long log gets one frame (the current snapshot), not the history", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("replay"), amount: "20.00" });
    const { last } = await appendEvents(body.data.id, 3 * MAX_REPLAY_EVENTS);
    expect(await openingIds(body.data.id, "0")).toEqual([last]);
    // Within the window, exactly what was missed, in order.
    const behind = MAX_REPLAY_EVENTS;
    expect(await openingIds(body.data.id, String(last - behind))).toEqual(
      Array.from({ length: behind }, (_, i) => last - behind + 1 + i),
    );
    // One more than the window: the current snapshot again.
    expect(await openingIds(body.data.id, String(last - behind - 1))).toEqual([last]);
    const snapshot = (await (await worker(`/v1/checkouts/${body.data.id}`)).json()) as {
      data: CheckoutSnapshot;
    };
    expect(snapshot.data.id).toBe(body.data.id);
  });

  it("the log keeps at most MAX_LOG_EVENTS rows and snapshots only for the replay window", async () => {
    const sub = uniqueSub("longlog");
    const { body } = await openCheckout({ sub, amount: "20.00" });
    const first = await appendEvents(body.data.id, MAX_LOG_EVENTS + 200);
    expect(first.rows).toBe(MAX_LOG_EVENTS);
    expect(first.kept).toBe(MAX_REPLAY_EVENTS);
    const more = await appendEvents(body.data.id, 10);
    expect(more).toEqual({ rows: MAX_LOG_EVENTS, kept: MAX_REPLAY_EVENTS, last: first.last + 10 });
    // The merchant's ledger lists the newest rows, in order, ending at the newest event.
    const events = (await ledgerOf(sub)).log;
    expect(events).toHaveLength(MAX_LOG_EVENTS);
    expect(events.at(-1)?.seq).toBe(more.last);
    // A fresh stream still opens with the current snapshot.
    expect(await openingIds(body.data.id, "0")).toEqual([more.last]);
  });

  it("the delivery dedupe table keeps only the newest deliveries and still recognises a duplicate of a recent one", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("deliveries") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const total = 500;
    const result = await runInDurableObject(stub, (o: OrderObject) => {
      const { log } = o.host;
      const at = new Date().toISOString();
      for (let i = 0; i < total; i++) log.rememberDelivery(`key-${i}`, at);
      log.rememberDelivery(`key-${total - 1}`, at); // a duplicate: no new row
      const { rows } = log.sql
        .exec<{ rows: number }>("SELECT COUNT(*) AS rows FROM deliveries")
        .one();
      return {
        rows: Number(rows),
        oldest: log.hasDelivery("key-0"),
        lastKept: Array.from({ length: MAX_REMEMBERED_DELIVERIES }, (_, i) =>
          log.hasDelivery(`key-${total - 1 - i}`),
        ),
      };
    });
    expect(result.rows).toBeGreaterThanOrEqual(MAX_REMEMBERED_DELIVERIES);
    expect(result.rows).toBeLessThan(MAX_REMEMBERED_DELIVERIES + 16);
    expect(result.oldest).toBe(false);
    expect(result.lastKept.every(Boolean)).toBe(true);
  });
});
