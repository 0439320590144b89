/**
 * The envelope's `timestamp` as the supersede rule reads it: one unambiguous ISO-8601 form,
 * epoch milliseconds, truncated past the millisecond (order kept), and null for everything
 * whose instant or unit is a guess, or that claims to be from the future.
 */
import { describe, expect, it } from "vitest";
import { deliverySentAt, MAX_AHEAD_MS } from "../../worker/edge/webhooks/sent-at.ts";

const NOW = Date.UTC(2026, 10, 23, 19, 0, 0, 0);

describe("deliverySentAt", () => {
  it("reads ISO-8601 with a zone as epoch milliseconds (the sandbox's toISOString form)", () => {
    expect(deliverySentAt("2026-11-23T18:59:59.123Z", NOW)).toBe(NOW - 877);
    expect(deliverySentAt("2026-11-23T18:59:59Z", NOW)).toBe(NOW - 1000);
    // The same instant written with an offset.
    expect(deliverySentAt("2026-11-23T20:59:59.123+02:00", NOW)).toBe(NOW - 877);
    expect(deliverySentAt("2026-11-23T13:29:59.123-05:30", NOW)).toBe(NOW - 877);
  });

  it("drops digits past the millisecond, which keeps order and may only make stamps equal", () => {
    const a = deliverySentAt("2026-11-23T18:59:59.123456Z", NOW);
    const b = deliverySentAt("2026-11-23T18:59:59.123999Z", NOW);
    const c = deliverySentAt("2026-11-23T18:59:59.124000001Z", NOW);
    expect(a).toBe(NOW - 877);
    expect(b).toBe(a);
    expect(c).toBe(NOW - 876);
  });

  it.each([
    ["a bare number (seconds or milliseconds?)", "1795460400"],
    ["epoch milliseconds as a string", "1795460400000"],
    ["no zone (local time of where?)", "2026-11-23T18:59:59.123"],
    ["a date alone", "2026-11-23"],
    ["another date format", "Mon, 23 Nov 2026 18:59:59 GMT"],
    ["a date that does not exist", "2026-02-31T10:00:00Z"],
    ["an hour out of range", "2026-11-23T24:00:00Z"],
    ["a garbled zone", "2026-11-23T18:59:59+25:00"],
    ["before the epoch", "1969-12-31T23:59:59Z"],
    ["empty", ""],
    ["text", "t"],
  ])("is null for %s", (_why, stamp) => {
    expect(deliverySentAt(stamp, NOW)).toBeNull();
  });

  it("is null for a non-string and for a stamp too far after the worker's clock", () => {
    expect(deliverySentAt(1795460400000, NOW)).toBeNull();
    expect(deliverySentAt(undefined, NOW)).toBeNull();
    const ahead = new Date(NOW + MAX_AHEAD_MS + 1).toISOString();
    expect(deliverySentAt(ahead, NOW)).toBeNull();
    const within = new Date(NOW + MAX_AHEAD_MS).toISOString();
    expect(deliverySentAt(within, NOW)).toBe(NOW + MAX_AHEAD_MS);
  });
});
