/**
 * @module
 * Server-sent events for one order or top-up: every open widget is a subscriber of the
 * object's entry in its stream hub (`core/streams/`), which pushes each new snapshot to all of
 * them.
 *
 * Invariants:
 * - a gone client is dropped as soon as workerd cancels its stream: each stream is a JS
 *   `ReadableStream`, and workerd calls its `cancel()` when the stream's consumer goes away,
 *   through the route's pass-through from the Durable Object to the worker too. Measured in
 *   workerd: a native `IdentityTransformStream` gives its writer no sign of a cancelled reader
 *   (`closed` stays pending, `ready` resolves) until a later write fails; `request.signal`
 *   needs the explicit flag `enable_request_signal` and belongs to the handler's invocation,
 *   which a returned stream outlives. Over a real socket, a local workerd itself learns that a
 *   connection closed only when it next writes to it: there the heartbeat comment is what
 *   makes it cancel the stream, and the subscriber goes at that heartbeat (with the native
 *   stream it could take one heartbeat more);
 * - a subscriber whose write fails is dropped at once too;
 * - a connection the client dropped is found within about `PROBE_MS`: over a real socket
 *   workerd notices a closed connection only when it writes to it, so each new stream gets one
 *   heartbeat comment `PROBE_MS` after it opened (one timer per hub for all streams opened
 *   meanwhile), not only the next 15 s heartbeat. Measured (bench, issue 20 item 13): 500
 *   connect-and-abort streams a round kept every aborted stream subscribed for up to 15 s;
 * - at most `MAX_SUBSCRIBERS` streams per hub: the oldest is closed to admit a new one (an
 *   outsider cannot grow the set without bound; the oldest is the likeliest to be gone);
 * - each stream lives at most `maxLifetimeMs`, then closes; EventSource reconnects with
 *   `Last-Event-ID` and is replayed what it missed;
 * - after a final event every stream is closed.
 */

const encoder = new TextEncoder();

/** One SSE frame for a snapshot. JSON has no raw newlines, so one `data:` line suffices. */
export function sseFrame(seq: number, json: string): string {
  return `id: ${seq}\nevent: snapshot\ndata: ${json}\n\n`;
}

/** Upper bound of the grace before final streams are closed. */
export const FINAL_CLOSE_MAX_MS = 3_000;

/** How soon after opening a stream is written to once, so a dropped connection is noticed. */
export const PROBE_MS = 1_000;

/** Most streams one hub (one order or top-up) keeps open. */
export const MAX_SUBSCRIBERS = 2_000;

interface Subscriber {
  /** Writes go straight into the stream's queue, which workerd drains to the connection. */
  controller: ReadableStreamDefaultController<Uint8Array>;
  openedAt: number;
  /** The newest event id this stream was sent (a broadcast of it or an older one skips it). */
  lastSeq: number;
}

/** Headers of every event stream. */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/** Ends a stream after what is queued (a no-op when it already ended). */
function closeQuietly(subscriber: Subscriber): void {
  try {
    subscriber.controller.close();
  } catch {
    // Already closed, errored or cancelled.
  }
}

/** The set of open streams of one order. */
export class SseHub {
  readonly #subscribers = new Set<Subscriber>();
  readonly #heartbeatMs: number;
  readonly #maxLifetimeMs: number;
  readonly #probeMs: number;
  readonly #maxSubscribers: number;
  #timer: ReturnType<typeof setInterval> | null = null;
  readonly #onEmpty: () => void;
  /** Streams opened since the last probe (each at most once; bounded by the hub's size). */
  #unprobed: Subscriber[] = [];
  #probeTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    options: {
      heartbeatMs?: number;
      maxLifetimeMs?: number;
      probeMs?: number;
      maxSubscribers?: number;
      /** Called when the last watcher leaves (the object's reads may slow down again). */
      onEmpty?: () => void;
    } = {},
  ) {
    this.#heartbeatMs = options.heartbeatMs ?? 15_000;
    this.#maxLifetimeMs = options.maxLifetimeMs ?? 10 * 60_000;
    this.#probeMs = options.probeMs ?? PROBE_MS;
    this.#maxSubscribers = options.maxSubscribers ?? MAX_SUBSCRIBERS;
    this.#onEmpty = options.onEmpty ?? (() => {});
  }

  get size(): number {
    return this.#subscribers.size;
  }

  /**
   * Opens a stream that starts with `frames`; closes it right after when `close` is true.
   *
   * `lastSeq`: the newest event id among `frames` (a later broadcast of it is not sent twice).
   *
   * @example
   * return hub.open([sseFrame(seq, json)], { close: snapshot.final, lastSeq: seq });
   */
  open(frames: readonly string[], options: { close: boolean; lastSeq?: number }): Response {
    // A plain ReadableStream, not a TransformStream: a frame is one `enqueue` (no JS writer
    // and no transform step between it and the response pipe), and its `cancel()` is the one
    // signal workerd gives when the client goes away. A thousand-watcher fan-out measured the
    // same as through workerd's native identity stream (README, issue 14's third round).
    let subscriber: Subscriber | undefined;
    const readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        subscriber = { controller, openedAt: Date.now(), lastSeq: options.lastSeq ?? 0 };
      },
      cancel: () => {
        if (subscriber) this.#drop(subscriber, false);
      },
    });
    const opened = subscriber!;
    // `retry` tells EventSource how soon to reconnect after a lifetime close.
    this.#write(opened, `retry: 2000\n\n${frames.join("")}`);
    if (options.close) {
      closeQuietly(opened);
    } else {
      if (this.#subscribers.size >= this.#maxSubscribers) this.closeOldest();
      this.#subscribers.add(opened);
      this.#ensureHeartbeat();
      this.#scheduleProbe(opened);
    }
    return new Response(readable, { headers: SSE_HEADERS });
  }

  /**
   * Sends a frame to every subscriber; when `final`, closes the streams a moment later.
   * Why later: closing a thousand streams at once competes with delivering the final frame
   * itself (measured: p99 1.3 s instead of 0.25 s at 1,000 watchers), and a client that got
   * the final event has nothing more to wait for. The grace grows with the audience. `seq`:
   * the event's id; a stream that opened with it (or a later one) is not sent it again.
   */
  broadcast(frame: string, final: boolean, seq = Number.POSITIVE_INFINITY): void {
    const bytes = encoder.encode(frame);
    for (const subscriber of this.#subscribers)
      if (subscriber.lastSeq < seq) this.#writeBytes(subscriber, bytes);
    if (!final) return;
    const closing = [...this.#subscribers];
    this.#subscribers.clear();
    this.#stopHeartbeat();
    if (closing.length > 0) this.#onEmpty();
    setTimeout(
      () => {
        for (const subscriber of closing) closeQuietly(subscriber);
      },
      Math.min(FINAL_CLOSE_MAX_MS, 100 + 2 * closing.length),
    );
  }

  /** Closes the oldest stream (its EventSource reconnects): a full stream hub gives way. */
  closeOldest(): void {
    // A Set iterates in insertion order: the first is the oldest.
    const oldest = this.#subscribers.values().next().value;
    if (oldest) this.#drop(oldest, true);
  }

  closeAll(): void {
    for (const subscriber of this.#subscribers) this.#drop(subscriber, true);
  }

  #write(subscriber: Subscriber, text: string): void {
    this.#writeBytes(subscriber, encoder.encode(text));
  }

  #writeBytes(subscriber: Subscriber, bytes: Uint8Array): void {
    try {
      // The same bytes go to every subscriber: a default (not byte) stream never detaches them.
      subscriber.controller.enqueue(bytes);
    } catch {
      // Closed or errored under us: the client is gone.
      this.#drop(subscriber, false);
    }
  }

  #drop(subscriber: Subscriber, close: boolean): void {
    if (!this.#subscribers.delete(subscriber)) return;
    if (close) closeQuietly(subscriber);
    else {
      try {
        subscriber.controller.error(new Error("subscriber dropped"));
      } catch {
        // Already closed or cancelled.
      }
    }
    if (this.#subscribers.size === 0) {
      this.#stopHeartbeat();
      // The last watcher left: the object's reads may slow down again.
      this.#onEmpty();
    }
  }

  #stopHeartbeat(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#probeTimer) clearTimeout(this.#probeTimer);
    this.#probeTimer = null;
    this.#unprobed = [];
  }

  /** One comment to `subscriber` `PROBE_MS` from now (shared timer): a dead socket then fails. */
  #scheduleProbe(subscriber: Subscriber): void {
    // Streams dropped before their probe leave the list here at the latest: it never holds
    // more than the hub's bound of live streams plus one.
    if (this.#unprobed.length >= this.#maxSubscribers)
      this.#unprobed = this.#unprobed.filter((s) => this.#subscribers.has(s));
    this.#unprobed.push(subscriber);
    if (this.#probeTimer) return;
    this.#probeTimer = setTimeout(() => {
      this.#probeTimer = null;
      const due = this.#unprobed;
      this.#unprobed = [];
      const beat = encoder.encode(": probe\n\n");
      for (const s of due) if (this.#subscribers.has(s)) this.#writeBytes(s, beat);
    }, this.#probeMs);
  }

  #ensureHeartbeat(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.tick(Date.now()), this.#heartbeatMs);
  }

  /** Heartbeat: a comment to every stream, and closes streams past their lifetime. */
  tick(now: number): void {
    const beat = encoder.encode(": heartbeat\n\n");
    for (const subscriber of this.#subscribers) {
      if (now - subscriber.openedAt >= this.#maxLifetimeMs) this.#drop(subscriber, true);
      else this.#writeBytes(subscriber, beat);
    }
  }
}
