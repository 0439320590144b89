/**
 * What the reconciler hands an object from a list page (`worker/core/reconciler/open-lists.ts`):
 * only a record that shows something it has not handed before and that is not older than what
 * the object knows; a lagging page (older status, less received) is a read that found nothing.
 */
import { describe, expect, it } from "vitest";
import { listedFacts, OPEN_STATUSES, offer } from "../../worker/core/reconciler/open-lists.ts";
import type { ListedRecord } from "../../worker/core/reconciler/reconciler-rpc.ts";
import type { Tracked } from "../../worker/core/reconciler/tracked.ts";
import type { Invoice } from "../../worker/service/types.ts";

const row = (over: Partial<Tracked> = {}): Tracked => ({
  kind: "invoice",
  id: "inv-1",
  namespace: "ORDERS",
  owner: "00",
  gapMs: 15_000,
  keepUntil: null,
  watched: true,
  status: "processing",
  received: "5",
  fingerprint: null,
  ...over,
});

const listed = (status: string, received: string | null): ListedRecord => ({
  kind: "invoice",
  record: { id: "inv-1", status, cryptoAmountReceived: received } as unknown as Invoice,
});

describe("reconciler offer", () => {
  it("hands a record newer than the known facts, once", () => {
    const newer = listed("partially_paid", "7");
    const first = offer(row(), newer);
    expect(first.hand).toBe(true);
    // The same record again (its fingerprint kept): nothing new.
    expect(offer(row({ fingerprint: first.fingerprint }), newer).hand).toBe(false);
  });

  it("never hands a lagging page: a lower status or less received than known", () => {
    expect(offer(row(), listed("created", "0")).hand).toBe(false);
    expect(offer(row(), listed("processing", "4")).hand).toBe(false);
  });

  it("hands a record whose facts are equal but whose other fields changed (a currency chosen on the hosted page)", () => {
    const base = listed("processing", "5");
    const seen = offer(row(), base).fingerprint;
    const changed: ListedRecord = {
      kind: "invoice",
      record: { ...base.record, cryptoCurrencyCode: "TRX" } as Invoice,
    };
    expect(offer(row({ fingerprint: seen }), changed).hand).toBe(true);
  });

  it("reads facts as each object does, and lists only statuses below the final rank", () => {
    expect(listedFacts(listed("processing", null))).toEqual({
      status: "processing",
      received: "0",
    });
    expect(OPEN_STATUSES.invoice).not.toContain("paid");
    expect(OPEN_STATUSES.invoice).not.toContain("expired");
    expect(OPEN_STATUSES.deposit).toEqual(["created", "processing", "suspended"]);
  });
});
