/**
 * @module
 * Events that carry a snapshot: append one to the log (inside the caller's transaction) and
 * open a client's stream with exactly what it missed (`streamOpening`). Shared by orders and top-ups.
 */

import type { StreamOpening } from "../streams/stream-hub-rpc.ts";
import type { EventLog } from "./event-log.ts";
import { sseFrame } from "./sse.ts";

/** An appended event: its SSE frame and the snapshot it carries. */
export interface Appended<S> {
  frame: string;
  snapshot: S;
  /** When the event was appended (its row's `at`). */
  at: string;
}

/**
 * Appends an event whose snapshot is rendered with the event's own sequence number. The
 * snapshot is rendered once and serialised once: the log, the SSE frame and the caller share
 * that one text and that one object (`render` builds a fresh object, which nobody mutates).
 *
 * @example
 * const event = appendSnapshot(this.log, "invoice.status", "paid", (seq) => snapshotAt(seq));
 */
export function appendSnapshot<S>(
  log: EventLog,
  type: string,
  message: string,
  render: (seq: number) => S,
): Appended<S> {
  let json = "";
  let snapshot: S | undefined;
  const at = new Date().toISOString();
  const seq = log.append(
    type,
    message,
    (s) => {
      snapshot = render(s);
      json = JSON.stringify(snapshot);
      return json;
    },
    at,
  );
  if (snapshot === undefined) throw new Error("the event log did not render the snapshot");
  return { frame: sseFrame(seq, json), snapshot, at };
}

/**
 * The last snapshot frame rendered for a fresh client, per object. A thousand widgets opening
 * at once (a connection storm) then cost one snapshot build and one serialisation, not a
 * thousand: each build reads every row and leaves its garbage for the collector, which then
 * ran in the middle of the next event's fan-out (measured: the first event after 1,000
 * watchers connected waited ~140–280 ms to enter the object, later events ~3 ms).
 *
 * Reused only for the same sequence number (every change of what a snapshot shows appends an
 * event) and for at most `FRESH_FRAME_MS`, which bounds how stale its `updatedAt` can be.
 */
const freshFrames = new WeakMap<
  EventLog,
  { seq: number; at: number; frame: string; final: boolean }
>();
const FRESH_FRAME_MS = 1_000;

/**
 * The id a client resumes after: `Last-Event-ID`, else `?lastEventId=`; null for a fresh
 * client (or an id of another shape).
 *
 * @example
 * lastEventId(new Request("https://x/e?lastEventId=4")) // 4
 */
export function lastEventId(request: Request): number | null {
  const header =
    request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
  return header !== null && /^\d{1,12}$/.test(header) ? Number(header) : null;
}

/**
 * What a new stream of `GET …/events` starts with: a fresh client gets the current snapshot;
 * a client resuming after `lastId` gets exactly the events after it, at most
 * `MAX_REPLAY_EVENTS` (50) of them: a client further behind (`Last-Event-ID: 0` on a long log)
 * gets the current snapshot, as a fresh client does, never the whole history; a client that
 * already saw the final event gets `gone` (204, which makes EventSource stop for good). The
 * stream hub (`core/streams/`) sends these frames, then every event published after `lastSeq`.
 *
 * @example
 * const opening = streamOpening(null, log, (seq) => snapshotAt(seq)); // { kind: "frames", … }
 */
export function streamOpening<S extends { final: boolean }>(
  lastId: number | null,
  log: EventLog,
  current: (seq: number) => S,
): StreamOpening {
  const lastSeq = log.lastSeq();
  const now = Date.now();
  let fresh = freshFrames.get(log);
  if (!fresh || fresh.seq !== lastSeq || now - fresh.at >= FRESH_FRAME_MS) {
    const snapshot = current(lastSeq);
    fresh = {
      seq: lastSeq,
      at: now,
      frame: sseFrame(lastSeq, JSON.stringify(snapshot)),
      final: snapshot.final,
    };
    freshFrames.set(log, fresh);
  }
  if (fresh.final && lastId !== null && lastId >= lastSeq) return { kind: "gone" };
  const missed = lastId === null || lastId > lastSeq ? null : log.after(lastId);
  const frames = missed ? missed.map((e) => sseFrame(e.seq, e.snapshot)) : [fresh.frame];
  return { kind: "frames", frames, lastSeq, final: fresh.final };
}

/**
 * The stream route's answer for an object that does not exist: 404 `not_found`, no stream.
 *
 * @example
 * if (!this.#current()) return streamNotFound("No such checkout.");
 */
export function streamNotFound(message: string): Response {
  return Response.json({ error: { code: "not_found", message } }, { status: 404 });
}
