/**
 * The checkout page's sandbox panel (`demo/storefront/public/sandbox-panel.js`): what is due
 * follows the attempt (nothing after *Expire*), and the *Partial amount* field is emptied when
 * the attempt, its remaining or its openness changes, never by a mere status step.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain browser JavaScript, no types.
import { partialRow } from "../../demo/storefront/public/sandbox-panel.js";

const snap = (status: string, remaining: string | null, orderId = "cc-1001") => ({
  attempt: {
    orderId,
    status,
    payment: remaining === null ? null : { cryptoCurrencyCode: "BNB", remaining },
  },
});

describe("the sandbox panel's partial row", () => {
  it("says what is due while the attempt is open, and Half applies", () => {
    expect(partialRow(snap("created", "0.041666666666666667"))).toMatchObject({
      hint: "(BNB, 0.041666666666666667 due)",
      half: true,
    });
  });

  it("says nothing is due once the attempt expired (not the stale remaining), Half off", () => {
    expect(partialRow(snap("expired", "0.5"))).toMatchObject({
      hint: "(BNB, nothing due: the attempt expired)",
      half: false,
    });
    expect(partialRow(snap("overpaid", "0")).hint).toBe("(BNB, nothing due: the attempt paid)");
  });

  it("before a currency is chosen: no amount, Half off", () => {
    expect(partialRow(snap("created", null))).toMatchObject({
      hint: "(crypto, after a currency is chosen)",
      half: false,
    });
    expect(partialRow(null).half).toBe(false);
  });

  it("its key (which empties the field) changes with the attempt, the remaining and expiry only", () => {
    const open = partialRow(snap("created", "0.5")).key;
    expect(partialRow(snap("processing", "0.5")).key).toBe(open);
    expect(partialRow(snap("partially_paid", "0.25")).key).not.toBe(open);
    expect(partialRow(snap("expired", "0.5")).key).not.toBe(open);
    expect(partialRow(snap("created", "0.5", "cc-1001-2")).key).not.toBe(open);
  });
});
