/**
 * @module
 * The EventStream capability of an object shoppers watch (order, top-up): its event log's
 * snapshots, the SSE hub of its watchers and the `GET …/events` route. It talks to its object
 * through a narrow face (bring followed reads forward, arm, log) and never touches the alarm
 * itself: a change in who watches only asks the object to arm.
 *
 * Invariants:
 * - an event is appended inside the caller's transaction and published only after it
 *   committed (`apply-sequence.ts` calls `publish` then), so no watcher sees a change that may
 *   roll back;
 * - the first watcher brings every followed read to `WATCHED_READ_MS` at the latest and the
 *   object is armed once the watcher is in the hub (the reconciler then registers it as
 *   watched); while others watch, reads already keep that cadence, so a connection storm of a
 *   thousand widgets costs one write and one alarm check, not a thousand; when the last
 *   watcher leaves, the object is armed again (the reconciler hears it is no longer watched).
 */
import type { Logger } from "../../lib/log.ts";
import type { EventLog } from "./event-log.ts";
import { type Appended, appendSnapshot, eventStream, streamNotFound } from "./live-events.ts";
import { SseHub } from "./sse.ts";

/** What the EventStream needs of its object. */
export interface EventStreamHost {
  /** The first watcher arrived: bring the object's followed reads forward (a write). */
  hurryReads(): void;
  /** Re-arms the object's one alarm (who watches changed). */
  arm(): Promise<void>;
  logger(): Logger;
}

/**
 * The event log's snapshots, the watchers and the stream route of one object.
 *
 * @example
 * const events = new EventStream<DepositSnapshot>(this.log, { hurryReads, arm, logger });
 * const event = events.append("deposit.status", "paid", (seq) => render(seq)); // in a transaction
 * events.publish(event, "deposit.status", { topUpId }); // after it committed
 */
export class EventStream<S extends { final: boolean; seq: number }> {
  /** The object's live watchers (SSE). */
  readonly hub: SseHub;
  readonly #log: EventLog;
  readonly #host: EventStreamHost;

  constructor(log: EventLog, host: EventStreamHost) {
    this.#log = log;
    this.#host = host;
    this.hub = new SseHub({ onEmpty: () => void host.arm() });
  }

  /** True while someone watches (reads come faster). */
  get watched(): boolean {
    return this.hub.size > 0;
  }

  /** Appends an event with the snapshot it produced (inside the caller's transaction). */
  append(type: string, message: string, render: (seq: number) => S): Appended<S> {
    return appendSnapshot(this.#log, type, message, render);
  }

  /**
   * Pushes a committed event to every watcher and logs it (debug, with `fields`); answers its
   * snapshot.
   */
  publish(event: Appended<S>, type: string, fields: Record<string, unknown>): S {
    this.hub.broadcast(event.frame, event.snapshot.final);
    this.#host.logger().debug(type, { ...fields, seq: event.snapshot.seq });
    return event.snapshot;
  }

  /**
   * `GET …/events`: 404 `missing` when there is nothing to render (`render` null), else the SSE
   * stream resuming after `Last-Event-ID` (`live-events.ts`).
   */
  async stream(
    request: Request,
    render: ((seq: number) => S) | null,
    missing: string,
  ): Promise<Response> {
    if (!render) return streamNotFound(missing);
    const first = this.hub.size === 0;
    if (first) this.#host.hurryReads();
    const response = eventStream(request, this.#log, this.hub, render);
    // Armed once the watcher is in the hub, so the reconciler registers it as watched.
    if (first) await this.#host.arm();
    return response;
  }
}
