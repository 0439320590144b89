/**
 * @module
 * The EventStream capability of an object shoppers watch (order, top-up): its event log's
 * snapshots, the opening of a new stream (`open`, asked by the checkout's stream hub) and the
 * relay of each committed event to that hub while it is watched. The object holds no stream
 * and no timer for its watchers: they live in the hub (`core/streams/stream-hub-object.ts`), so
 * a watched object can be evicted between events. It talks to its object through a narrow face
 * (bring followed reads forward, arm, log, its key-value storage, the hub's `publish`) and never
 * touches the alarm itself: a change in who watches only asks the object to arm.
 *
 * Invariants:
 * - an event is appended inside the caller's transaction and published only after it
 *   committed (`apply-sequence.ts` calls `publish` then), so no watcher sees a change that may
 *   roll back;
 * - "watched" is one record in the object's key-value storage (the hub that holds its streams
 *   and the key it knows the object by), so it survives the object's eviction; an unwatched
 *   object sends nothing per event;
 * - the opening frames and "watched" are decided in one synchronous step (no event can be
 *   appended between them): every event after the opening's `lastSeq` is published to the hub,
 *   which buffers it for the opening stream (`core/streams/watched-entry.ts`);
 * - events reach the hub in `seq` order: one batch RPC at a time (`MAX_PUBLISH_BATCH`), tried
 *   at most `PUBLISH_ATTEMPTS` times, `PUBLISH_RETRY_MS` apart (the hub drops ids it already
 *   relayed); an event committed while a batch is in flight waits for it;
 * - the first watcher brings every followed read to `WATCHED_READ_MS` at the latest and the
 *   object is armed (the reconciler then registers it as watched); while watched, reads already
 *   keep that cadence, so a connection storm of a thousand widgets costs one write and one
 *   alarm check, not a thousand; when the hub says its last watcher left (`unwatched`), or
 *   answers a publish with "no stream here" (it restarted), the object is armed again (the
 *   reconciler hears it is no longer watched).
 */
import type { Logger } from "../../lib/log.ts";
import type { HubFrame, StreamOpening } from "../streams/stream-hub-rpc.ts";
import type { EventLog } from "./event-log.ts";
import { type Appended, appendSnapshot, streamOpening } from "./live-events.ts";

/** Most events one publish RPC carries. */
export const MAX_PUBLISH_BATCH = 50;
/**
 * Pauses before each retry of a publish RPC; after the last one fails the batch is given up
 * (the hub's gap check then closes the streams at the next event, and they reconnect and are
 * replayed). Spaced rather than immediate so that a hub restarting or briefly overloaded is
 * waited for; together ≈ 5 s, well inside the 15 s in which a change must reach a watcher.
 */
export const PUBLISH_RETRY_MS: readonly number[] = [250, 1_000, 4_000];
/** Tries of one publish RPC before its batch is given up. */
export const PUBLISH_ATTEMPTS = PUBLISH_RETRY_MS.length + 1;
/** The key-value record that says which hub watches the object. */
const WATCH_KEY = "events.watch";

/** Which hub holds the object's streams, and the key the hub knows it by. */
interface Watch {
  hub: string;
  key: string;
}

/** What the EventStream needs of its object. */
export interface EventStreamHost {
  /** The first watcher arrived: bring the object's followed reads forward (a write). */
  hurryReads(): void;
  /** Re-arms the object's one alarm (who watches changed). */
  arm(): Promise<void>;
  logger(): Logger;
  /** The object's synchronous key-value storage (where "watched" is kept). */
  readonly kv: SyncKvStorage;
  /** Relays events to hub `hub` (`StreamHubRpc.publish`); false when it holds no stream. */
  publishTo(hub: string, key: string, frames: HubFrame[]): Promise<boolean>;
  /** Keeps the object alive until `promise` settles (the relay runs after the answer). */
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The event log's snapshots and the relay to the stream hub of one object.
 *
 * @example
 * const events = new EventStream<DepositSnapshot>(this.log, streamHost);
 * const event = events.append("deposit.status", "paid", (seq) => render(seq)); // in a transaction
 * events.publish(event, "deposit.status", { topUpId }); // after it committed
 */
export class EventStream<S extends { final: boolean; seq: number }> {
  /** The object's event log (what a stream opens with). */
  readonly log: EventLog;
  readonly #host: EventStreamHost;
  /** The watch record, read from storage once (undefined: not read yet). */
  #watch: Watch | null | undefined;
  /** Bumped at every change of the watch: a stale "no stream here" then changes nothing. */
  #generation = 0;
  /** Committed events not sent to the hub yet, oldest first. */
  #outgoing: HubFrame[] = [];
  #sending: Promise<void> | null = null;

  constructor(log: EventLog, host: EventStreamHost) {
    this.log = log;
    this.#host = host;
  }

  /** True while a stream hub holds someone watching (reads come faster). */
  get watched(): boolean {
    return this.#current() !== null;
  }

  /** Appends an event with the snapshot it produced (inside the caller's transaction). */
  append(type: string, message: string, render: (seq: number) => S): Appended<S> {
    return appendSnapshot(this.log, type, message, render);
  }

  /**
   * Sends a committed event to the hub while watched (nothing otherwise) and logs it (debug,
   * with `fields`); answers its snapshot.
   */
  publish(event: Appended<S>, type: string, fields: Record<string, unknown>): S {
    const { snapshot } = event;
    if (this.#current() !== null) {
      this.#outgoing.push({ seq: snapshot.seq, frame: event.frame, final: snapshot.final });
      this.#send();
    }
    this.#host.logger().debug(type, { ...fields, seq: snapshot.seq });
    return snapshot;
  }

  /**
   * A stream opens at hub `hub` (`WatchedRpc.streamOpen`): `missing` when there is nothing to
   * render (`render` null), else its opening frames (`live-events.ts` `streamOpening`). A live
   * stream makes the object watched by `hub` from this step on.
   */
  async open(
    hub: string,
    key: string,
    lastId: number | null,
    render: ((seq: number) => S) | null,
    missing: string,
  ): Promise<StreamOpening> {
    if (!render) return { kind: "missing", message: missing };
    const opening = streamOpening(lastId, this.log, render);
    if (opening.kind !== "frames" || opening.final) return opening;
    const first = this.#current() === null;
    this.#setWatch({ hub, key });
    if (first) {
      this.#host.hurryReads();
      // Armed once watched, so the reconciler registers it as watched.
      await this.#host.arm();
    }
    return opening;
  }

  /** Hub `hub`'s last stream of this object ended (`WatchedRpc.streamUnwatched`). */
  async unwatched(hub: string): Promise<void> {
    if (this.#current()?.hub !== hub) return;
    this.#setWatch(null);
    await this.#host.arm();
  }

  #current(): Watch | null {
    if (this.#watch === undefined) this.#watch = this.#host.kv.get<Watch>(WATCH_KEY) ?? null;
    return this.#watch;
  }

  #setWatch(watch: Watch | null): void {
    this.#watch = watch;
    this.#generation++;
    if (watch) this.#host.kv.put(WATCH_KEY, watch);
    else {
      this.#host.kv.delete(WATCH_KEY);
      this.#outgoing = [];
    }
  }

  /** Starts the relay unless it runs (one batch RPC at a time keeps `seq` order). */
  #send(): void {
    if (this.#sending) return;
    this.#sending = this.#drain().finally(() => {
      this.#sending = null;
      // An event published while the last batch's answer was being settled.
      if (this.#outgoing.length > 0) this.#send();
    });
    this.#host.waitUntil(this.#sending);
  }

  async #drain(): Promise<void> {
    while (this.#outgoing.length > 0) {
      const watch = this.#current();
      if (!watch) return;
      const generation = this.#generation;
      const batch = this.#outgoing.splice(0, MAX_PUBLISH_BATCH);
      const held = await this.#deliver(watch, batch);
      // The hub holds no stream of ours (it restarted, or its last watcher left): unless a
      // stream opened meanwhile, the object is no longer watched.
      if (held === false && generation === this.#generation) {
        this.#setWatch(null);
        await this.#host.arm();
      }
    }
  }

  /** One batch to the hub; null when every try failed (logged; the streams reconnect). */
  async #deliver(watch: Watch, batch: HubFrame[]): Promise<boolean | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#host.publishTo(watch.hub, watch.key, batch);
      } catch (error) {
        const pause = PUBLISH_RETRY_MS[attempt - 1];
        if (pause === undefined) {
          this.#host.logger().warn("events.publish_failed", {
            hub: watch.hub,
            seq: batch[0]!.seq,
            attempts: attempt,
            error: String(error),
          });
          return null;
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}
