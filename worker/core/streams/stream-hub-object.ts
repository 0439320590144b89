/**
 * @module
 * `StreamHubObject`: holds the SSE streams of the checkouts (orders and top-ups) that hash to
 * it (`hub-name.ts`: `STREAM_HUB_COUNT` hubs per deployment). The stream route sends a
 * checkout's `GET …/events` here; the hub asks the checkout's object for the opening frames
 * (`WatchedRpc.streamOpen`: the snapshot, or the replay after the client's last id), then holds
 * the stream; the object publishes each new event here with one RPC while watched. So the
 * checkout's own object holds no stream or timer and is evicted between events like any idle
 * object: what a watched checkout costs is its streams here, not a resident object (README,
 * "Memory per watched checkout").
 *
 * Invariants:
 * - subscribe before replay (`watched-entry.ts`): an event published while a stream is being
 *   opened reaches it once, in order;
 * - the object is told it is unwatched when its last stream here ends (none being opened), and
 *   an open waits for such a message still in flight, so "watched" and "unwatched" reach the
 *   object in the order the hub decided them;
 * - which objects were told "watched" is also a table here, and while it has rows an alarm
 *   comes every `ORPHAN_SWEEP_MS`: a hub that restarted (evicted with no stream, crashed, a
 *   deploy) tells every object it no longer holds a stream of that it is unwatched; its
 *   streams ended with it, and each widget reconnects with `Last-Event-ID` and is replayed
 *   what it missed;
 * - at most `MAX_HUB_STREAMS` streams, live or being opened (admission and registration are one
 *   synchronous step, so a burst of concurrent opens cannot pass it): when full, the new stream
 *   takes the place of the oldest stream of the checkout with the most, if that one keeps at
 *   least as many, else 503 `busy` (the widget polls; `hub-admission.ts`); per object,
 *   `SseHub`'s cap closes the oldest stream first;
 * - an open waits for every "unwatched" of its object in flight, including one the orphan
 *   sweep chained while it waited, so no "unwatched" reaches the object after its new stream's
 *   "watched".
 *
 * Memory: per stream, one JS subscriber record (≈ 100 B) plus the runtime's own held stream;
 * per watched object one `WatchedEntry` (its `SseHub`, one heartbeat timer) and, while a stream
 * opens, at most `MAX_OPENING_FRAMES` buffered frames. A full hub of 10,000 streams holds
 * about 1 MB of JS; the runtime's streams are the rest (measured per 1,000 in the README).
 */
import { DurableObject } from "cloudflare:workers";
import { parseConfig } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { configLogger } from "../config/logger.ts";
import { lastEventId, streamNotFound } from "../events/live-events.ts";
import { watchedStub } from "../objects/stubs.ts";
import { admission } from "./hub-admission.ts";
import type { HubFrame, StreamHubRpc } from "./stream-hub-rpc.ts";
import { watchedTarget } from "./stream-hub-rpc.ts";
import { WatchedEntry } from "./watched-entry.ts";

/** Most streams one hub holds. */
export const MAX_HUB_STREAMS = 10_000;
/** While objects were told "watched", the hub looks for orphans this often. */
export const ORPHAN_SWEEP_MS = 60_000;
/** Most events one publish may carry (`event-stream.ts` sends at most its batch). */
const MAX_RELAY = 100;

/** The headers the stream route passes: which object, and this hub's own name. */
export const STREAM_TARGET_HEADER = "x-stream-target";
export const STREAM_HUB_HEADER = "x-stream-hub";

type Row = Record<string, SqlStorageValue>;

export class StreamHubObject extends DurableObject<CoreEnv> implements StreamHubRpc {
  readonly #entries = new Map<string, WatchedEntry>();
  /** Per object, the "unwatched" message in flight (an open waits for it). */
  readonly #releasing = new Map<string, Promise<void>>();
  #name: string | null = null;
  /** `MAX_HUB_STREAMS`; lowered only by tests, to fill a hub with a few streams. */
  maxStreams = MAX_HUB_STREAMS;

  constructor(ctx: DurableObjectState, env: CoreEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS watching (key TEXT PRIMARY KEY); CREATE TABLE IF NOT EXISTS hub (name TEXT NOT NULL)",
      );
      const row = ctx.storage.sql.exec<Row>("SELECT name FROM hub").toArray()[0];
      this.#name = row ? String(row.name) : null;
    });
  }

  /** `GET …/events` of one checkout, from the stream route (`hub-route.ts`). */
  override async fetch(request: Request): Promise<Response> {
    const key = request.headers.get(STREAM_TARGET_HEADER) ?? "";
    const target = watchedTarget(key);
    const name = request.headers.get(STREAM_HUB_HEADER);
    if (!target || !name) return streamNotFound("No such stream.");
    this.#rememberName(name);
    // Waits for every "unwatched" of this object in flight, even one chained while waiting.
    for (let releasing = this.#releasing.get(key); releasing; releasing = this.#releasing.get(key))
      await releasing;
    const admitted = this.#admit(key);
    if (admitted) return admitted;
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = new WatchedEntry(() => this.#release(key));
      this.#entries.set(key, entry);
    }
    const opening = entry.beginOpening();
    const object = watchedStub(this.env, target.kind, target.id);
    let answer: Awaited<ReturnType<typeof object.streamOpen>>;
    try {
      answer = await object.streamOpen(name, key, lastEventId(request));
    } catch (error) {
      // The object may have answered (and so be watched from here) with the answer lost on
      // the way: recorded as told, so the release below (or the sweep) says "unwatched".
      entry.cancelOpening(opening);
      this.#announce(key, entry);
      this.#release(key);
      throw error;
    }
    if (answer.kind !== "frames") {
      entry.cancelOpening(opening);
      this.#release(key);
      return answer.kind === "gone"
        ? new Response(null, { status: 204 })
        : streamNotFound(answer.message);
    }
    const { response, live, watched } = entry.finishOpening(opening, answer);
    if (watched) this.#announce(key, entry);
    if (!live) this.#release(key);
    return response;
  }

  /** Relays a watched object's committed events to its streams (`StreamHubRpc`). */
  async publish(key: string, frames: HubFrame[]): Promise<boolean> {
    if (frames.length > MAX_RELAY) throw new Error(`a publish carries at most ${MAX_RELAY} events`);
    const entry = this.#entries.get(key);
    if (!entry) return false;
    entry.relay(frames);
    return true;
  }

  /** Tells every object this hub announced but holds no stream of that it is unwatched. */
  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const keys = sql
      .exec<Row>("SELECT key FROM watching")
      .toArray()
      .map((r) => String(r.key));
    for (const key of keys) if (!this.#entries.has(key)) this.#unwatch(key);
    await Promise.allSettled(keys.map((key) => this.#releasing.get(key)));
    if (sql.exec<Row>("SELECT 1 FROM watching LIMIT 1").toArray().length > 0)
      await this.ctx.storage.setAlarm(Date.now() + ORPHAN_SWEEP_MS);
  }

  #rememberName(name: string): void {
    if (this.#name === name) return;
    if (this.#name !== null) throw new Error(`stream hub ${this.#name} was asked as ${name}`);
    this.#name = name;
    this.ctx.storage.sql.exec("INSERT INTO hub (name) VALUES (?)", name);
  }

  /** Null when a stream of `key` may open now (maybe in another's place), else 503 `busy`. */
  #admit(key: string): Response | null {
    // The entries themselves are the loads: no allocation per open (one scan of the entries).
    const decision = admission(this.#entries, key, this.maxStreams);
    if (decision.kind === "admit") return null;
    if (decision.kind === "evict") {
      this.#entries.get(decision.key)?.streams.closeOldest();
      return null;
    }
    return Response.json(
      { error: { code: "busy", message: "Too many live streams; poll the checkout instead." } },
      { status: 503, headers: { "retry-after": "5" } },
    );
  }

  /** The object now publishes here: remembered, so a restarted hub can say "unwatched". */
  #announce(key: string, entry: WatchedEntry): void {
    if (entry.announced) return;
    entry.announced = true;
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO watching (key) VALUES (?)", key);
    this.ctx.waitUntil(
      this.ctx.storage.getAlarm().then(async (at) => {
        if (at === null) await this.ctx.storage.setAlarm(Date.now() + ORPHAN_SWEEP_MS);
      }),
    );
  }

  /** The last stream of `key` ended: forget it, and tell the object when it was announced. */
  #release(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry?.idle) return;
    this.#entries.delete(key);
    if (entry.announced) this.#unwatch(key);
  }

  /** A warning through the deployment's logger (secrets scrubbed), as every object logs. */
  #warn(event: string, error: string): void {
    const parsed = parseConfig(this.env);
    if (parsed.ok) configLogger(parsed.config).warn(event, { error });
    else console.log(JSON.stringify({ level: "warn", event, at: new Date().toISOString() }));
  }

  /** Sends "unwatched" to the object of `key` (in order with later opens); the row goes after. */
  #unwatch(key: string): void {
    const target = watchedTarget(key);
    const name = this.#name;
    if (!target || !name) return;
    const previous = this.#releasing.get(key) ?? Promise.resolve();
    const done: Promise<void> = previous
      .then(() => watchedStub(this.env, target.kind, target.id).streamUnwatched(name))
      .then(
        () => void this.ctx.storage.sql.exec("DELETE FROM watching WHERE key = ?", key),
        // Kept: the next sweep tries again.
        (error: unknown) => this.#warn("stream_hub.unwatch_failed", String(error)),
      )
      .finally(() => {
        if (this.#releasing.get(key) === done) this.#releasing.delete(key);
      });
    this.#releasing.set(key, done);
    this.ctx.waitUntil(done);
  }
}
