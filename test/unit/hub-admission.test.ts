/**
 * A full stream hub's admission (`worker/core/streams/hub-admission.ts`): streams being opened
 * count against the cap; a checkout with many streams gives way to one with fewer, never the
 * other way round and never back and forth; a hub full of single watchers refuses (503 busy).
 */
import { describe, expect, it } from "vitest";
import { admission } from "../../worker/core/streams/hub-admission.ts";

const loads = (...entries: [string, number, number?][]) =>
  entries.map(([k, live, openings = 0]) => [k, { live, openings }] as const);

describe("stream hub admission", () => {
  it("admits below the cap, counting the streams being opened", () => {
    expect(admission(loads(["a", 2]), "b", 3)).toEqual({ kind: "admit" });
    // Two live and one opening: full (a burst of concurrent opens cannot pass the cap).
    expect(admission(loads(["a", 2, 1]), "a", 3)).toEqual({ kind: "busy" });
  });

  it("full: a checkout flooding the hub gives its oldest stream to a checkout with fewer", () => {
    expect(admission(loads(["flood", 9], ["shopper", 1]), "new", 10)).toEqual({
      kind: "evict",
      key: "flood",
    });
    expect(admission(loads(["flood", 9], ["shopper", 1]), "shopper", 10)).toEqual({
      kind: "evict",
      key: "flood",
    });
  });

  it("full: a flooder cannot take a place back, and the shares never swap back and forth", () => {
    expect(admission(loads(["flood", 9], ["shopper", 1]), "flood", 10)).toEqual({ kind: "busy" });
    // After one move (4 → 3, 1 → 2) the evicted stream's reconnect is refused.
    expect(admission(loads(["a", 3], ["b", 2]), "a", 5)).toEqual({ kind: "busy" });
    expect(admission(loads(["a", 3], ["b", 2]), "b", 5)).toEqual({ kind: "busy" });
  });

  it("full of single watchers: refused (busy), nobody evicted", () => {
    expect(admission(loads(["a", 1], ["b", 1], ["c", 1]), "d", 3)).toEqual({ kind: "busy" });
  });

  it("rejects a cap that is not a positive whole number", () => {
    expect(() => admission([], "a", 0)).toThrow(/bad hub stream cap/);
  });
});
