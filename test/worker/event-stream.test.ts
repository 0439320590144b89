/**
 * The EventStream capability (`worker/core/events/event-stream.ts`) on a real object's event log
 * and key-value storage, with a host that records what it was asked. It holds no stream: a hub
 * asks it for a stream's opening frames, and it relays each committed event to that hub while
 * watched. Missing with nothing to render; the first live opening hurries reads and arms, later
 * ones do not; an appended event reaches the hub only when published, and only while watched;
 * "unwatched" from another hub changes nothing, from its hub it arms; a hub that answers "no
 * stream here" unwatches it; "watched" survives a new instance (an evicted object).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EventLog } from "../../worker/core/events/event-log.ts";
import {
  EventStream,
  type EventStreamHost,
  PUBLISH_RETRY_MS,
} from "../../worker/core/events/event-stream.ts";
import type { HubFrame } from "../../worker/core/streams/stream-hub-rpc.ts";
import { openCheckout, uniqueSub } from "./helpers.ts";

type Snap = { final: boolean; seq: number; note: string };

/**
 * An EventStream over the object's real event log, with a host that records what it is asked
 * (reads hurried, arms, warnings) and relays through `publishTo`.
 */
function recordingStream(state: DurableObjectState, publishTo: EventStreamHost["publishTo"]) {
  const calls: string[] = [];
  const warned: string[] = [];
  const pending: Promise<unknown>[] = [];
  // A fresh key-value space, so the order's own watch record is not touched.
  const kv = new Map<string, unknown>();
  const host: EventStreamHost = {
    hurryReads: () => void calls.push("hurry"),
    arm: async () => void calls.push("arm"),
    logger: () => ({ debug: () => {}, warn: (event: string) => void warned.push(event) }),
    kv: {
      get: (k: string) => kv.get(k),
      put: (k: string, v: unknown) => void kv.set(k, v),
      delete: (k: string) => kv.delete(k),
      list: () => kv.entries(),
    } as unknown as SyncKvStorage,
    publishTo,
    waitUntil: (p: Promise<unknown>) => void pending.push(p),
  };
  const log = new EventLog(state.storage.sql);
  const events = new EventStream<Snap>(log, host);
  /** Appends and commits one event, then publishes it. */
  const change = (note: string) => {
    const event = state.storage.transactionSync(() =>
      events.append("thing.changed", note, (seq) => ({ final: false, seq, note })),
    );
    return events.publish(event, "thing.changed", {});
  };
  /** Waits for every relay the stream started. */
  const settle = async () => {
    while (pending.length > 0) await pending.shift();
  };
  return { events, log, host, calls, warned, change, settle };
}

describe("the EventStream capability", () => {
  it("opens streams for a hub, relays published events to it while watched, and forgets the watch when told", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("stream") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const result = await runInDurableObject(stub, async (_o, state: DurableObjectState) => {
      const sent: { hub: string; key: string; frames: HubFrame[] }[] = [];
      let held = true;
      const { events, log, host, calls, change, settle } = recordingStream(
        state,
        async (hub, key, frames) => {
          sent.push({ hub, key, frames });
          return held;
        },
      );
      const render = (seq: number): Snap => ({ final: false, seq, note: "now" });

      const missing = await events.open("h1", "order:k", null, null, "No such thing.");
      change("unwatched");
      await settle();
      const sentUnwatched = sent.length;
      const first = await events.open("h1", "order:k", null, render, "No such thing.");
      const second = await events.open("h1", "order:k", null, render, "No such thing.");
      const whileWatched = { calls: [...calls], watched: events.watched };
      const published = change("changed");
      await settle();
      const relayed = sent.map((s) => [s.hub, s.key, s.frames.map((f) => f.seq)]);
      // A new instance over the same storage (the object evicted and loaded again).
      const reloaded = new EventStream<Snap>(log, host).watched;
      await events.unwatched("h2");
      const afterOtherHub = events.watched;
      await events.unwatched("h1");
      const afterOwnHub = { watched: events.watched, calls: [...calls] };
      change("unwatched again");
      await settle();
      const sentAfter = sent.length;
      // Watched again; the hub restarted and holds no stream: the object stops publishing.
      await events.open("h1", "order:k", null, render, "No such thing.");
      held = false;
      change("hub gone");
      await settle();
      return {
        missing,
        sentUnwatched,
        first: first.kind === "frames" ? first.lastSeq : null,
        second: second.kind,
        whileWatched,
        published: published.note,
        relayed,
        reloaded,
        afterOtherHub,
        afterOwnHub,
        sentAfter,
        afterHubGone: { watched: events.watched, calls: calls.slice(-1), sent: sent.length },
      };
    });
    expect(result.missing).toEqual({ kind: "missing", message: "No such thing." });
    // Unwatched: nothing sent per event.
    expect(result.sentUnwatched).toBe(0);
    expect(result.second).toBe("frames");
    expect(result.whileWatched).toEqual({ calls: ["hurry", "arm"], watched: true });
    expect(result.published).toBe("changed");
    expect(result.relayed).toEqual([["h1", "order:k", [result.first! + 1]]]);
    expect(result.reloaded).toBe(true);
    expect(result.afterOtherHub).toBe(true);
    expect(result.afterOwnHub).toEqual({ watched: false, calls: ["hurry", "arm", "arm"] });
    expect(result.sentAfter).toBe(1);
    expect(result.afterHubGone).toEqual({ watched: false, calls: ["arm"], sent: 2 });
  });

  it("retries a failed publish after spaced pauses, in order, and gives the batch up after the last", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("streamretry") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const result = await runInDurableObject(stub, async (_o, state: DurableObjectState) => {
      const tries: { at: number; seqs: number[] }[] = [];
      let failures = 2;
      const { events, warned, change, settle } = recordingStream(
        state,
        async (_hub, _key, frames) => {
          tries.push({ at: Date.now(), seqs: frames.map((f) => f.seq) });
          if (failures-- > 0) throw new Error("hub overloaded");
          return true;
        },
      );
      const render = (seq: number): Snap => ({ final: false, seq, note: "now" });
      await events.open("h1", "order:k", null, render, "No such thing.");
      change("first");
      change("second"); // committed while the first batch is being retried: sent after it
      await settle();
      const recovered = { tries: [...tries], warned: [...warned], watched: events.watched };
      failures = Number.POSITIVE_INFINITY;
      tries.length = 0;
      change("never");
      await settle();
      return { recovered, givenUp: { tries: tries.length, warned, watched: events.watched } };
    });
    const { tries } = result.recovered;
    // Two failures, then the first batch; then the event committed meanwhile, in order.
    expect(tries.map((t) => t.seqs.length)).toEqual([1, 1, 1, 1]);
    expect(tries[0]!.seqs).toEqual(tries[2]!.seqs);
    expect(tries[3]!.seqs[0]).toBe(tries[0]!.seqs[0]! + 1);
    // Spaced, not immediate (the runtime's clock moves at I/O: the pauses are timers).
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(PUBLISH_RETRY_MS[0]!);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(PUBLISH_RETRY_MS[1]!);
    expect(result.recovered.warned).toEqual([]);
    expect(result.recovered.watched).toBe(true);
    // Every try failed: given up once, logged, still watched (the hub's gap check recovers).
    expect(result.givenUp).toEqual({
      tries: PUBLISH_RETRY_MS.length + 1,
      warned: ["events.publish_failed"],
      watched: true,
    });
  }, 30_000);
});
