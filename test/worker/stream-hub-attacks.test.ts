/**
 * The stream hubs under attack (`worker/core/streams/`): what each bad or forged request to
 * `GET /v1/checkouts/:id/events` and `GET /v1/deposits/:id/events` gets, and that it leaves no
 * state behind; what a `Last-Event-ID` of any shape gets; and the races of an opening with a
 * final event, a lost publish, a lost answer and the orphan sweep, which must leave the
 * checkout neither watched with no stream (read every 10 s for nobody), nor unwatched with a
 * live stream, nor streamed with an event missing; and a full hub's fair admission (a checkout
 * flooding its hub gives way to its neighbours).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sseFrame } from "../../worker/core/events/sse.ts";
import { streamHubName } from "../../worker/core/streams/hub-name.ts";
import { MAX_HUB_STREAMS } from "../../worker/core/streams/stream-hub-object.ts";
import { expectedFault } from "../expected-faults.ts";
import { hubOf } from "../support/stream-hubs.ts";
import type { OrderObject, StreamHubObject } from "../support/worker-entry.ts";
import { openCheckout, postJson, uniqueSub, worker } from "./helpers.ts";
import { hubUntil } from "./sse-frames.ts";

const orderOf = (id: string) => env.ORDERS.get(env.ORDERS.idFromName(id));
const depositOf = (id: string) => env.DEPOSITS.get(env.DEPOSITS.idFromName(id));

async function locked() {
  const { body } = await openCheckout({ sub: uniqueSub("attack"), amount: "20.00" });
  await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
  return body.data.id as string;
}

/** A well-shaped checkout id nobody created (22 base64url characters). */
function forgedId(prefix = ""): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let id = "";
  for (let i = 0; i < 22; i++) id += chars[Math.floor(Math.random() * chars.length)];
  return prefix + id;
}

/** What the hub keeps of one object: its open streams, and whether its table names it. */
async function hubHolds(checkoutId: string, key: string) {
  return runInDurableObject(hubOf(checkoutId), async (h: StreamHubObject, state) => {
    await h.settled();
    const rows = state.storage.sql.exec("SELECT 1 FROM watching WHERE key = ?", key).toArray();
    return { streams: h.streams(key), recorded: rows.length > 0 };
  });
}

/** The user tables and the watch record of an object (a forged id must create neither). */
async function objectState(stub: DurableObjectStub) {
  return runInDurableObject(stub, (_o, state: DurableObjectState) => ({
    tables: state.storage.sql
      .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf%'")
      .toArray().length,
    watch: state.storage.kv.get("events.watch") ?? null,
  }));
}

/** The first chunk of a stream's ids (its opening frames), then the stream is cancelled. */
async function openingIds(res: Response): Promise<number[]> {
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel().catch(() => {});
  return [...new TextDecoder().decode(value).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

describe("stream routes: bad and forged ids", () => {
  it("an id of the wrong shape gets 404 not_found (JSON) and reaches no hub", async () => {
    for (const path of [
      "/v1/checkouts/short/events",
      `/v1/checkouts/${"x".repeat(23)}/events`,
      "/v1/deposits/not-a-top-up/events",
      `/v1/deposits/${forgedId()}/events`, // an order's shape, not a top-up's
    ]) {
      const res = await worker(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe(
        "not_found",
      );
    }
  });

  it("a well-shaped id nobody created gets 404 not_found and leaves nothing in its hub or its object", async () => {
    for (const [id, stub, kind] of [
      [forgedId(), (i: string) => orderOf(i), "order"],
      [forgedId("d"), (i: string) => depositOf(i), "deposit"],
    ] as const) {
      const path = `/v1/${kind === "order" ? "checkouts" : "deposits"}/${id}/events`;
      const res = await worker(path);
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("not_found");
      const key = `${kind}:${stub(id).id.toString()}`;
      expect(await hubHolds(id, key)).toEqual({ streams: 0, recorded: false });
      expect(await objectState(stub(id))).toEqual({ tables: 0, watch: null });
    }
  });
});

describe("Last-Event-ID of every shape", () => {
  it("negative, non-numeric, fractional, over 12 digits or beyond the newest id: the current snapshot, as a fresh client", async () => {
    const id = await locked();
    const fresh = await openingIds(await worker(`/v1/checkouts/${id}/events`));
    expect(fresh).toHaveLength(1);
    for (const bad of ["-1", "abc", "1.5", "9".repeat(13), String(fresh[0]! + 1000), "1e3"]) {
      const res = await worker(`/v1/checkouts/${id}/events`, {
        headers: { "last-event-id": bad },
      });
      expect(res.status, bad).toBe(200);
      expect(await openingIds(res), bad).toEqual(fresh);
    }
    expect(await hubUntil(id, (w) => w.size === 0)).toEqual({ size: 0, watched: false });
  });
});

describe("races of an opening", () => {
  it("a final event relayed while a stream opens: the stream closes after it and the order is not left watched", async () => {
    const id = await locked();
    const key = `order:${orderOf(id).id.toString()}`;
    const newest = await runInDurableObject(orderOf(id), (o: OrderObject) => o.host.log.lastSeq());
    const hub = hubOf(id);
    // The hub registers the opening, then waits for the order's answer; the final event's
    // publish arrives meanwhile and is buffered for the opening.
    const request = new Request(`https://hub/v1/checkouts/${id}/events`, {
      headers: { "x-stream-target": key, "x-stream-hub": streamHubName(id) },
    });
    const opening = hub.fetch(request);
    const published = await hub.publish(key, [
      { seq: newest + 1, frame: sseFrame(newest + 1, '{"final":true}'), final: true },
    ]);
    const res = await opening;
    expect(res.status).toBe(200);
    const text = await res.text();
    if (published) expect(text).toContain(`id: ${newest + 1}\n`);
    expect(await hubHolds(id, key)).toEqual({ streams: 0, recorded: false });
    expect(await objectState(orderOf(id))).toMatchObject({ watch: null });
  });

  it("a publish lost right after an opening (the next relayed id skips one) closes the stream, so it reconnects and is replayed", async () => {
    const id = await locked();
    const key = `order:${orderOf(id).id.toString()}`;
    const res = await worker(`/v1/checkouts/${id}/events`);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const seq = Number(/^id: (\d+)$/m.exec(first)![1]);
    // seq + 1 never reached the hub; seq + 2 does.
    expect(
      await hubOf(id).publish(key, [
        { seq: seq + 2, frame: sseFrame(seq + 2, "{}"), final: false },
      ]),
    ).toBe(true);
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).not.toContain(`id: ${seq + 2}\n`);
    expect(await hubUntil(id, (w) => w.size === 0)).toEqual({ size: 0, watched: false });
  });
});

describe("unwatched racing a new open", () => {
  it("an orphan sweep that chains a second 'unwatched' while a new open waits for the first does not leave the live stream's order unwatched", async () => {
    const id = await locked();
    const key = `order:${orderOf(id).id.toString()}`;
    const request = () =>
      new Request(`https://hub/v1/checkouts/${id}/events`, {
        headers: { "x-stream-target": key, "x-stream-hub": streamHubName(id) },
      });
    const reopened = await runInDurableObject(hubOf(id), async (h: StreamHubObject) => {
      const first = await h.fetch(request());
      expect(first.status).toBe(200);
      // The last stream ends: the hub sends "unwatched" (in flight)...
      await first.body!.cancel();
      expect(h.streams(key)).toBe(0);
      // ...a new open waits for it, and the orphan sweep runs meanwhile (the order's row is
      // still in the table until that message is delivered).
      const opening = h.fetch(request());
      const sweep = h.alarm();
      const second = await opening;
      await sweep;
      await h.settled();
      expect(second.status).toBe(200);
      return { streams: h.streams(key), body: second.body! };
    });
    expect(reopened.streams).toBe(1);
    const watch = await objectState(orderOf(id));
    // The stream belongs to the hub's context: cancelled there.
    await runInDurableObject(hubOf(id), () => reopened.body.cancel());
    expect(watch.watch).toEqual({ hub: streamHubName(id), key });
  });
});

describe("an opening whose answer is lost", () => {
  it("the order answered (and so is watched) but the answer never reached the hub: the hub still tells it 'unwatched'", async () => {
    const id = await locked();
    const key = `order:${orderOf(id).id.toString()}`;
    // The order makes itself watched, then its answer is lost on the way back (RPC calls the
    // class's method: patched on the prototype, for this one order, for this one request).
    const proto = await runInDurableObject(orderOf(id), (o: OrderObject) => {
      const prototype = Object.getPrototypeOf(o) as OrderObject;
      const open = prototype.streamOpen;
      prototype.streamOpen = async function (this: OrderObject, ...args) {
        const answer = await open.apply(this, args);
        if (this === o) throw new Error(expectedFault("answer lost"));
        return answer;
      };
      return { prototype, open };
    });
    let res: Response;
    try {
      res = await worker(`/v1/checkouts/${id}/events`);
    } finally {
      proto.prototype.streamOpen = proto.open;
    }
    expect(res.status).toBe(500);
    await runInDurableObject(hubOf(id), (h: StreamHubObject) => h.settled());
    expect(await hubHolds(id, key)).toEqual({ streams: 0, recorded: false });
    expect(await objectState(orderOf(id))).toMatchObject({ watch: null });
  });
});

describe("a full hub admits fairly", () => {
  it("a checkout flooding its hub gives its oldest stream to another checkout of that hub; the flooder's next stream gets 503 busy", async () => {
    const flooded = await locked();
    const hubName = streamHubName(flooded);
    // Another checkout whose streams the same hub holds.
    let other = "";
    for (let i = 0; i < 200 && !other; i++) {
      const { body } = await openCheckout({ sub: uniqueSub("neighbour"), amount: "20.00" });
      if (streamHubName(body.data.id) === hubName) other = body.data.id;
    }
    expect(other).not.toBe("");
    const setCap = (cap: number) =>
      runInDurableObject(hubOf(flooded), (h: StreamHubObject) => {
        h.maxStreams = cap;
      });
    await setCap(3);
    try {
      const flood = [];
      for (let i = 0; i < 3; i++) {
        const res = await worker(`/v1/checkouts/${flooded}/events`);
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        await reader.read();
        flood.push(reader);
      }
      // Full: before, every other checkout of this hub got 503 here.
      const neighbour = await worker(`/v1/checkouts/${other}/events`);
      expect(neighbour.status).toBe(200);
      // The flooder's oldest stream was closed to make room (its EventSource reconnects).
      let rest = await flood[0]!.read();
      while (!rest.done) rest = await flood[0]!.read();
      const again = await worker(`/v1/checkouts/${flooded}/events`);
      expect(again.status).toBe(503);
      expect(again.headers.get("retry-after")).toBe("5");
      expect(await again.json()).toEqual({
        error: { code: "busy", message: "Too many live streams; poll the checkout instead." },
      });
      await neighbour.body!.cancel();
      for (const reader of flood) await reader.cancel();
    } finally {
      await setCap(MAX_HUB_STREAMS);
    }
  });
});
