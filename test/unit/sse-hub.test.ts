import { afterEach, describe, expect, it, vi } from "vitest";
import {
  FINAL_CLOSE_MAX_MS,
  MAX_SUBSCRIBERS,
  PROBE_MS,
  SseHub,
  sseFrame,
} from "../../worker/core/events/sse.ts";

async function readSome(res: Response, until: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) return `${text}<EOF>`;
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return text;
}

describe("SseHub", () => {
  it("starts with the given frames and the right headers", async () => {
    const hub = new SseHub();
    const res = hub.open([sseFrame(3, '{"a":1}')], { close: false });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    const text = await readSome(res, (t) => t.includes('{"a":1}'));
    expect(text).toContain("retry: 2000");
    expect(text).toContain('id: 3\nevent: snapshot\ndata: {"a":1}\n\n');
    expect(hub.size).toBe(1);
    hub.closeAll();
  });

  it("broadcasts to every subscriber and closes them all on a final event", async () => {
    const hub = new SseHub();
    const a = hub.open([], { close: false });
    const b = hub.open([], { close: false });
    hub.broadcast(sseFrame(4, '{"final":true}'), true);
    expect(hub.size).toBe(0);
    for (const res of [a, b]) {
      const text = await readSome(res, () => false);
      expect(text).toContain("id: 4");
      expect(text.endsWith("<EOF>")).toBe(true);
    }
  });

  it("sends heartbeat comments and closes streams past their maximum lifetime", async () => {
    const hub = new SseHub({ heartbeatMs: 60_000, maxLifetimeMs: 1_000 });
    const res = hub.open([], { close: false });
    hub.tick(Date.now());
    const text = await readSome(res, (t) => t.includes(": heartbeat"));
    expect(text).toContain(": heartbeat\n\n");
    expect(hub.size).toBe(1);
    hub.tick(Date.now() + 2_000);
    expect(hub.size).toBe(0);
  });

  it("drops a subscriber whose write fails (a gone client)", async () => {
    const hub = new SseHub();
    const res = hub.open([], { close: false });
    await res.body!.cancel();
    hub.broadcast(sseFrame(1, "{}"), false);
    // The failed write is noticed asynchronously.
    for (let i = 0; i < 20 && hub.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(hub.size).toBe(0);
  });

  it("drops a subscriber as soon as its reader cancels, before any write", async () => {
    const hub = new SseHub({ heartbeatMs: 60_000 });
    const gone = hub.open([], { close: false });
    const staying = hub.open([], { close: false });
    expect(hub.size).toBe(2);
    await gone.body!.cancel();
    expect(hub.size).toBe(1);
    // The one left still gets every frame.
    hub.broadcast(sseFrame(2, '{"b":2}'), false);
    expect(await readSome(staying, (t) => t.includes('{"b":2}'))).toContain("id: 2");
    hub.closeAll();
  });

  it("sends the same frame intact to every subscriber", async () => {
    const hub = new SseHub();
    const streams = [1, 2, 3].map(() => hub.open([], { close: false }));
    hub.broadcast(sseFrame(5, '{"same":true}'), true);
    for (const res of streams) {
      const text = await readSome(res, () => false);
      expect(text).toBe('retry: 2000\n\nid: 5\nevent: snapshot\ndata: {"same":true}\n\n<EOF>');
    }
  });

  it("a finite stream (already final) closes after its frames", async () => {
    const hub = new SseHub();
    const res = hub.open([sseFrame(9, "{}")], { close: true });
    const text = await readSome(res, () => false);
    expect(text).toContain("id: 9");
    expect(text.endsWith("<EOF>")).toBe(true);
    expect(hub.size).toBe(0);
  });
});

describe("SseHub bounds (issue 20, item 13)", () => {
  it("writes one probe comment to a new stream PROBE_MS after it opened (a dead socket then fails)", async () => {
    expect(PROBE_MS).toBeLessThanOrEqual(1_000);
    const hub = new SseHub({ heartbeatMs: 60_000, probeMs: 20 });
    const a = hub.open([], { close: false });
    const b = hub.open([], { close: false });
    for (const res of [a, b]) {
      const text = await readSome(res, (t) => t.includes(": probe"));
      expect(text).toContain(": probe\n\n");
    }
    hub.closeAll();
  });

  it("keeps at most maxSubscribers streams: the oldest is closed to admit a new one", async () => {
    expect(MAX_SUBSCRIBERS).toBeGreaterThanOrEqual(1_000);
    const hub = new SseHub({ maxSubscribers: 3, probeMs: 60_000 });
    const streams = Array.from({ length: 5 }, () => hub.open([], { close: false }));
    expect(hub.size).toBe(3);
    // The two oldest ended (closed, readable to their end); the newest three are open.
    for (const res of streams.slice(0, 2)) {
      expect((await readSome(res, () => false)).endsWith("<EOF>")).toBe(true);
    }
    hub.broadcast(sseFrame(9, "{}"), false);
    for (const res of streams.slice(2)) {
      expect(await readSome(res, (t) => t.includes("id: 9"))).toContain("id: 9");
    }
    hub.closeAll();
    expect(hub.size).toBe(0);
  });
});

describe("SseHub keeps nothing for a gone stream (issue 20, item 13)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("streams cancelled by their readers leave no heartbeat or probe timer behind", async () => {
    vi.useFakeTimers();
    const hub = new SseHub({ heartbeatMs: 15_000, probeMs: 1_000 });
    const streams = Array.from({ length: 3 }, () => hub.open([], { close: false }));
    // One heartbeat interval and one shared probe timeout while streams are open.
    expect(vi.getTimerCount()).toBe(2);
    for (const res of streams) await res.body!.cancel();
    expect(hub.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a stream cancelled after its probe leaves no timer behind either", async () => {
    vi.useFakeTimers();
    const hub = new SseHub({ heartbeatMs: 15_000, probeMs: 1_000 });
    const res = hub.open([], { close: false });
    vi.advanceTimersByTime(1_000);
    expect(vi.getTimerCount()).toBe(1); // the heartbeat only
    await res.body!.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("closeAll and a final event leave no timer behind once the grace has passed", async () => {
    vi.useFakeTimers();
    const closed = new SseHub();
    for (let i = 0; i < 3; i++) closed.open([], { close: false });
    closed.closeAll();
    expect(vi.getTimerCount()).toBe(0);
    const ended = new SseHub();
    for (let i = 0; i < 3; i++) ended.open([], { close: false });
    ended.broadcast(sseFrame(1, "{}"), true);
    vi.advanceTimersByTime(FINAL_CLOSE_MAX_MS);
    expect(ended.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
