/**
 * The rule both views follow to pick the snapshot they show (`widget/snapshots.ts`): a higher
 * `seq` is shown, the same `seq` is a duplicate and a lower one stale (both ignored), another
 * id always replaces; and a newer snapshot that changes only `seq`/`updatedAt` is no new state.
 */
import { describe, expect, it } from "vitest";
import { isNewState, supersedes } from "../../widget/snapshots.ts";
import { depositSnapshot, snapshot } from "./fakes.ts";

describe("which snapshot is shown", () => {
  const shown = snapshot({ seq: 5 });

  it("the first one, a higher seq, or another checkout's", () => {
    expect(supersedes(null, shown)).toBe(true);
    expect(supersedes(shown, { ...shown, seq: 6 })).toBe(true);
    expect(supersedes(shown, { ...shown, id: "another", seq: 1 })).toBe(true);
  });

  it("not a duplicate (same seq, even with other content) nor a stale one", () => {
    const duplicate = snapshot({ seq: 5, final: true, updatedAt: "2099-01-01T00:00:00.000Z" });
    expect(supersedes(shown, duplicate)).toBe(false);
    expect(supersedes(shown, { ...shown, seq: 4 })).toBe(false);
  });

  it("deposits follow the same rule", () => {
    const d = depositSnapshot({ seq: 2 });
    expect(supersedes(d, { ...d, seq: 2, status: "completed" })).toBe(false);
    expect(supersedes(d, { ...d, seq: 1 })).toBe(false);
    expect(supersedes(d, { ...d, seq: 3 })).toBe(true);
  });
});

describe("what is a new state", () => {
  it("anything the shopper could see, not the sequence number or the worker's clock", () => {
    const shown = snapshot({ seq: 1 });
    expect(isNewState(null, shown)).toBe(true);
    expect(isNewState(shown, { ...shown, seq: 2, updatedAt: "2099-01-01T00:00:00.000Z" })).toBe(
      false,
    );
    expect(isNewState(shown, { ...shown, seq: 2, amountPaid: "1.00" })).toBe(true);
    const d = depositSnapshot();
    expect(isNewState(d, { ...d, seq: 9, status: "processing" })).toBe(true);
  });
});
