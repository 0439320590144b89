/**
 * @module
 * What a stream hub keeps of one watched object (order or top-up): its streams (one `SseHub`:
 * the per-object subscriber cap with the oldest closed first, heartbeat, probe of a new stream,
 * lifetime close, close after a final event), the newest event id relayed, and the streams
 * being opened.
 *
 * The subscribe/replay race, closed: a stream being opened is registered here (`beginOpening`)
 * before the hub asks the object for its opening frames, so every event the object publishes
 * meanwhile is buffered for it; `finishOpening` sends the opening frames, then the buffered
 * events after the opening's `lastSeq` (event ids are per object and only grow: nothing twice,
 * nothing missed, in order), and from then on the stream is a subscriber like the others.
 *
 * A lost publish (a gap in the relayed ids) closes the streams, which reconnect and are
 * replayed (`relay`).
 *
 * Bounds: at most `MAX_OPENING_FRAMES` buffered events per opening stream (more, and the stream
 * closes after its opening frames: EventSource reconnects with `Last-Event-ID` and is replayed
 * the rest); the subscribers per object are `SseHub`'s `MAX_SUBSCRIBERS`.
 */
import { MAX_REPLAY_EVENTS } from "../events/event-log.ts";
import { SseHub } from "../events/sse.ts";
import type { HubFrame, StreamOpening } from "./stream-hub-rpc.ts";

/** Most events buffered for one stream while its opening frames are asked for. */
export const MAX_OPENING_FRAMES = MAX_REPLAY_EVENTS;

/** A stream being opened: the events relayed since it was registered. */
export interface Opening {
  frames: HubFrame[];
  overflowed: boolean;
}

/** One watched object's streams in a hub. */
export class WatchedEntry {
  readonly streams: SseHub;
  /** The newest event id relayed (a repeated or older one is dropped). */
  lastSeq = 0;
  /** True once the object was told a stream here watches it (it then publishes here). */
  announced = false;
  readonly #openings = new Set<Opening>();

  /** `onEmpty`: the last stream ended (the hub may release the object). */
  constructor(onEmpty: () => void, options: ConstructorParameters<typeof SseHub>[0] = {}) {
    this.streams = new SseHub({ ...options, onEmpty });
  }

  /** Live streams (`EntryLoad`, with `openings`: what the hub counts against its cap). */
  get live(): number {
    return this.streams.size;
  }

  /** Streams being opened (the hub counts them against its cap with the live ones). */
  get openings(): number {
    return this.#openings.size;
  }

  /** No stream and none being opened: the hub forgets the object. */
  get idle(): boolean {
    return this.streams.size === 0 && this.#openings.size === 0;
  }

  /** Registers a stream about to ask for its opening frames; events relayed now are kept. */
  beginOpening(): Opening {
    const opening: Opening = { frames: [], overflowed: false };
    this.#openings.add(opening);
    return opening;
  }

  /** The opening was abandoned (the object's answer failed or was no stream). */
  cancelOpening(opening: Opening): void {
    this.#openings.delete(opening);
  }

  /**
   * Opens the stream: the object's opening frames, then what was buffered after them; closed
   * right after when final (or when the buffer overflowed). `watched`: the object now
   * publishes here (its answer was not final), whether or not this stream stays open.
   *
   * @example
   * const res = entry.finishOpening(opening, await object.streamOpen(hub, key, lastId));
   */
  finishOpening(
    opening: Opening,
    answer: Extract<StreamOpening, { kind: "frames" }>,
  ): { response: Response; live: boolean; watched: boolean } {
    this.#openings.delete(opening);
    // The object publishes every event after `answer.lastSeq` from now on, so what was
    // buffered starts right after it, and when this stream is the entry's only one the next
    // relayed id is checked against it (else a publish lost right after an opening went
    // unnoticed and its stream missed that event). With other streams or openings the relays
    // may still be behind the answer: they need those events, and are checked already.
    const later = opening.frames.filter((f) => f.seq > answer.lastSeq);
    if (later.length > 0 && later[0]!.seq > answer.lastSeq + 1) opening.overflowed = true;
    if (this.streams.size === 0 && this.#openings.size === 0)
      this.lastSeq = Math.max(this.lastSeq, answer.lastSeq);
    const frames = opening.overflowed
      ? answer.frames
      : [...answer.frames, ...later.map((f) => f.frame)];
    const close = opening.overflowed || answer.final || later.some((f) => f.final);
    // A publish of an event the opening already carried may still arrive: it is skipped.
    const lastSeq = opening.overflowed ? answer.lastSeq : (later.at(-1)?.seq ?? answer.lastSeq);
    // A non-final answer made the object watched by this hub (`event-stream.ts` `open`), even
    // when this stream closes at once (a final event or an overflow buffered meanwhile): the
    // hub must then tell it "unwatched", or it stays watched with no stream.
    return {
      response: this.streams.open(frames, { close, lastSeq }),
      live: !close,
      watched: !answer.final,
    };
  }

  /**
   * Relays published events: each new id to every stream and every opening, oldest first. The
   * object publishes every event it appends while watched, so after the first relayed id the
   * ids run without a gap; a gap means a publish was lost on the way (its tries failed): every
   * stream is closed (and every opening closes after its frames), and each reconnects with
   * `Last-Event-ID` and is replayed what it missed.
   */
  relay(frames: readonly HubFrame[]): void {
    for (const event of frames) {
      if (event.seq <= this.lastSeq) continue;
      const gap = this.lastSeq > 0 && event.seq > this.lastSeq + 1;
      this.lastSeq = event.seq;
      if (gap) {
        for (const opening of this.#openings) opening.overflowed = true;
        this.streams.closeAll();
        continue;
      }
      for (const opening of this.#openings) {
        if (opening.frames.length >= MAX_OPENING_FRAMES) opening.overflowed = true;
        else opening.frames.push(event);
      }
      this.streams.broadcast(event.frame, event.final, event.seq);
    }
  }
}
