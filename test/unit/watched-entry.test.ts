/**
 * A stream hub's entry for one watched object (`worker/core/streams/watched-entry.ts`): the
 * subscribe/replay race. A stream registers before asking the object for its opening frames;
 * events published meanwhile reach it once, after the opening, in order, whether the object's
 * answer already covered them or not; a publish that arrives late (after the stream opened
 * with it) is not sent twice.
 */
import { describe, expect, it } from "vitest";
import { sseFrame } from "../../worker/core/events/sse.ts";
import { MAX_OPENING_FRAMES, WatchedEntry } from "../../worker/core/streams/watched-entry.ts";

const event = (seq: number, final = false) => ({
  seq,
  frame: sseFrame(seq, JSON.stringify({ seq, final })),
  final,
});
const answer = (from: number, to: number, final = false) => ({
  kind: "frames" as const,
  frames: Array.from({ length: to - from + 1 }, (_, i) => event(from + i).frame),
  lastSeq: to,
  final,
});

/** Every frame id a stream carried until it ended (or `count` ids). */
async function ids(res: Response, count: number): Promise<{ ids: number[]; ended: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const seen = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  while (seen().length < count) {
    const { value, done } = await reader.read();
    if (done) return { ids: seen(), ended: true };
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return { ids: seen(), ended: false };
}

describe("WatchedEntry: subscribe first, then replay", () => {
  it("an event published while the stream opens reaches it once, after the replay, in order", async () => {
    const entry = new WatchedEntry(() => {});
    const opening = entry.beginOpening();
    // Published while the object's answer is on its way: 5 (already in the answer) and 6.
    entry.relay([event(5), event(6)]);
    const { response, live } = entry.finishOpening(opening, answer(3, 5));
    expect(live).toBe(true);
    // A repeat of 6 (a retried publish) and the next event.
    entry.relay([event(6), event(7)]);
    expect(await ids(response, 5)).toEqual({ ids: [3, 4, 5, 6, 7], ended: false });
    entry.streams.closeAll();
  });

  it("a publish the answer already carried, arriving after the stream opened, is not sent twice; the other streams get it", async () => {
    const entry = new WatchedEntry(() => {});
    const older = entry.streams.open([], { close: false, lastSeq: 4 });
    entry.relay([event(4)]);
    const opening = entry.beginOpening();
    // The object already appended 5 and 6; their publish is still in flight.
    const { response } = entry.finishOpening(opening, answer(6, 6));
    entry.relay([event(5), event(6), event(7)]);
    expect(await ids(response, 2)).toEqual({ ids: [6, 7], ended: false });
    expect(await ids(older, 3)).toEqual({ ids: [5, 6, 7], ended: false });
    entry.streams.closeAll();
  });

  it("a final event buffered during the opening closes the stream after it", async () => {
    const entry = new WatchedEntry(() => {});
    const opening = entry.beginOpening();
    entry.relay([event(9, true)]);
    const { response, live } = entry.finishOpening(opening, answer(8, 8));
    expect(live).toBe(false);
    expect(await ids(response, 3)).toEqual({ ids: [8, 9], ended: true });
    expect(entry.idle).toBe(true);
  });

  it("more than MAX_OPENING_FRAMES events during one opening: the stream sends the answer and closes (the reconnect replays the rest)", async () => {
    const entry = new WatchedEntry(() => {});
    const opening = entry.beginOpening();
    entry.relay(Array.from({ length: MAX_OPENING_FRAMES + 1 }, (_, i) => event(11 + i)));
    const { response, live } = entry.finishOpening(opening, answer(10, 10));
    expect(live).toBe(false);
    expect(await ids(response, 2)).toEqual({ ids: [10], ended: true });
  });

  it("a gap in the relayed ids (a publish lost on the way) closes the streams, so they reconnect and are replayed", async () => {
    const entry = new WatchedEntry(() => {});
    const opening = entry.beginOpening();
    const { response } = entry.finishOpening(opening, answer(1, 1));
    entry.relay([event(2)]);
    const pending = entry.beginOpening();
    // Event 3 never arrived.
    entry.relay([event(4)]);
    expect(await ids(response, 5)).toEqual({ ids: [1, 2], ended: true });
    // A stream being opened then closes after its own frames too.
    const late = entry.finishOpening(pending, answer(1, 4));
    expect(late.live).toBe(false);
    expect(await ids(late.response, 5)).toEqual({ ids: [1, 2, 3, 4], ended: true });
  });

  it("the first relay after an opening is checked for a gap against the opening's last id (a publish lost right after it closes the stream)", async () => {
    const entry = new WatchedEntry(() => {});
    const opening = entry.beginOpening();
    const { response, live } = entry.finishOpening(opening, answer(1, 3));
    expect(live).toBe(true);
    // Event 4 never arrived.
    entry.relay([event(5)]);
    expect(await ids(response, 5)).toEqual({ ids: [1, 2, 3], ended: true });
    // The same loss seen while a stream opens: it closes after its opening frames.
    const again = new WatchedEntry(() => {});
    const pending = again.beginOpening();
    again.relay([event(5)]);
    const late = again.finishOpening(pending, answer(1, 3));
    expect(late.live).toBe(false);
    expect(await ids(late.response, 5)).toEqual({ ids: [1, 2, 3], ended: true });
  });

  it("a non-final answer makes the object watched even when the stream closes at once (a final event buffered meanwhile): the hub must unwatch it", () => {
    const entry = new WatchedEntry(() => {});
    const closing = entry.beginOpening();
    entry.relay([event(9, true)]);
    expect(entry.finishOpening(closing, answer(8, 8))).toMatchObject({
      live: false,
      watched: true,
    });
    const final = entry.beginOpening();
    expect(entry.finishOpening(final, answer(9, 9, true))).toMatchObject({
      live: false,
      watched: false,
    });
  });

  it("is idle only with no stream and none being opened", () => {
    const entry = new WatchedEntry(() => {});
    expect(entry.idle).toBe(true);
    const opening = entry.beginOpening();
    expect(entry.idle).toBe(false);
    entry.cancelOpening(opening);
    expect(entry.idle).toBe(true);
  });
});
