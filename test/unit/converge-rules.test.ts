/**
 * The pure rules of the convergence core: status ranks follow the service's graphs, older
 * reads are recognised, the acknowledgement rule, and the reconciliation schedule.
 */
import { describe, expect, it } from "vitest";
import {
  afterLock,
  covers,
  isOlder,
  MAX_REPLACED_TERMS,
  paymentTerms,
  undoesLock,
} from "../../worker/core/converge/facts.ts";
import {
  FIRST_READ_MS,
  MAX_READ_MS,
  nextGap,
  nextReadAt,
  WATCHED_READ_MS,
} from "../../worker/core/converge/schedule.ts";
import { isFinalAtService, statusRank } from "../../worker/core/converge/status-rank.ts";

/** The sandbox's published graphs (demo/sandbox): every move must not lower the rank. */
const INVOICE_MOVES: Record<string, string[]> = {
  created: ["processing", "expired", "cancelled", "failed"],
  processing: ["paid", "overpaid", "partially_paid", "suspended", "failed"],
  suspended: ["processing", "paid", "failed"],
  partially_paid: ["paid", "overpaid", "expired"],
};
const DEPOSIT_MOVES: Record<string, string[]> = {
  created: ["processing", "expired", "cancelled", "failed"],
  processing: ["completed", "suspended", "failed"],
  suspended: ["processing", "completed", "failed"],
};
const WITHDRAWAL_MOVES: Record<string, string[]> = {
  created: ["processing", "failed", "cancelled"],
  processing: ["completed", "failed"],
};

describe("status ranks", () => {
  it.each([
    ["invoice", INVOICE_MOVES],
    ["deposit", DEPOSIT_MOVES],
    ["withdrawal", WITHDRAWAL_MOVES],
  ] as const)("%s: every move of the service keeps or raises the rank", (kind, moves) => {
    for (const [from, tos] of Object.entries(moves))
      for (const to of tos)
        expect(statusRank(kind, to)).toBeGreaterThanOrEqual(statusRank(kind, from));
  });

  it("final statuses are the top rank; an unknown word ranks below everything", () => {
    expect(isFinalAtService("invoice", "paid")).toBe(true);
    expect(isFinalAtService("invoice", "partially_paid")).toBe(false);
    expect(isFinalAtService("deposit", "completed")).toBe(true);
    expect(statusRank("invoice", "bogus")).toBeLessThan(statusRank("invoice", "created"));
  });
});

describe("facts", () => {
  const f = (status: string, received = "0") => ({ status, received });
  it("a lower rank or less received is older; equal is not", () => {
    expect(isOlder("invoice", f("processing"), f("paid", "10"))).toBe(true);
    expect(isOlder("invoice", f("partially_paid", "4"), f("partially_paid", "6"))).toBe(true);
    expect(isOlder("invoice", f("expired", "4"), f("partially_paid", "4"))).toBe(false);
    expect(isOlder("invoice", f("paid", "10"), f("paid", "10"))).toBe(false);
  });
  it("a webhook is covered only by facts at least as new as it announced", () => {
    expect(covers("invoice", f("processing"), f("paid", "10"))).toBe(false);
    expect(covers("invoice", f("paid", "10"), f("processing"))).toBe(true);
    expect(covers("invoice", f("partially_paid", "4"), f("partially_paid", "6"))).toBe(false);
    expect(covers("withdrawal", f("completed"), f("completed"))).toBe(true);
  });
  it("a read of the other status of the same rank does not cover a webhook, unless it is final", () => {
    // processing ⇄ suspended: a stale `processing` read for an announced `suspended` → 503.
    expect(covers("invoice", f("processing"), f("suspended"))).toBe(false);
    expect(covers("invoice", f("suspended"), f("processing"))).toBe(false);
    expect(covers("invoice", f("suspended"), f("suspended"))).toBe(true);
    // Final alternatives: the service never moves again, so the read is the truth.
    expect(covers("invoice", f("paid", "10"), f("expired"))).toBe(true);
    expect(covers("deposit", f("completed", "5"), f("failed"))).toBe(true);
  });
});

describe("reconciliation schedule", () => {
  it("doubles the gap after unchanged reads up to 5 min, and resets on change", () => {
    let gap = FIRST_READ_MS;
    const gaps = [];
    for (let i = 0; i < 8; i++) {
      gap = nextGap(gap, false);
      gaps.push(gap);
    }
    expect(gaps).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000, 300_000]);
    expect(nextGap(MAX_READ_MS, true)).toBe(FIRST_READ_MS);
  });
  it("a watcher caps the gap at 10 s; a 429 hint and the late-payment window win", () => {
    const now = 1_000_000;
    expect(nextReadAt({ now, gap: MAX_READ_MS, watched: true, keepUntil: null })).toBe(
      now + WATCHED_READ_MS,
    );
    expect(
      nextReadAt({
        now,
        gap: MAX_READ_MS,
        watched: true,
        keepUntil: null,
        notBefore: now + 60_000,
      }),
    ).toBe(now + 60_000);
    expect(nextReadAt({ now, gap: FIRST_READ_MS, watched: false, keepUntil: now })).toBeNull();
  });
});

describe("a confirmed currency lock is a fact (issue 20, item 2)", () => {
  const btc = paymentTerms({
    cryptoCurrencyCode: "BTC",
    cryptoAmountExpected: "0.001",
    address: "tb1qa",
  })!;
  const eth = paymentTerms({
    cryptoCurrencyCode: "ETH",
    cryptoAmountExpected: "0.02",
    address: "0xab",
  })!;
  const trx = paymentTerms({
    cryptoCurrencyCode: "TRX",
    cryptoAmountExpected: "200",
    address: "TLa",
  })!;
  const created = { status: "created", received: "0" };

  it("a read at the same progress showing terms the lock replaced is older", () => {
    const lock = afterLock(null, btc, eth);
    expect(lock).toEqual({ terms: eth, replaced: [btc] });
    expect(undoesLock("invoice", created, btc, created, lock)).toBe(true);
    // The lock's own terms, no currency yet, or terms no lock replaced (a choice made elsewhere).
    expect(undoesLock("invoice", created, eth, created, lock)).toBe(false);
    expect(undoesLock("invoice", created, null, created, lock)).toBe(false);
    expect(undoesLock("invoice", created, trx, created, lock)).toBe(false);
    // No lock fact (none confirmed, or a later lock unconfirmed): nothing is undone.
    expect(undoesLock("invoice", created, btc, created, null)).toBe(false);
  });

  it("progress is newer than the lock: a higher rank or more received is never held back", () => {
    const lock = afterLock(null, btc, eth);
    expect(undoesLock("invoice", { status: "processing", received: "0" }, btc, created, lock)).toBe(
      false,
    );
    expect(
      undoesLock("invoice", { status: "created", received: "0.0005" }, btc, created, lock),
    ).toBe(false);
  });

  it("re-locks accumulate what they replaced, never the answered terms, and stay bounded", () => {
    const twice = afterLock(afterLock(null, btc, eth), eth, trx);
    expect(twice).toEqual({ terms: trx, replaced: [btc, eth] });
    // Back to BTC: BTC is the lock's terms now, no longer replaced.
    expect(afterLock(twice, trx, btc)).toEqual({ terms: btc, replaced: [eth, trx] });
    let fact = afterLock(null, null, "T0");
    for (let i = 1; i < 40; i++) fact = afterLock(fact, `T${i - 1}`, `T${i}`);
    expect(fact.replaced).toHaveLength(MAX_REPLACED_TERMS);
    expect(fact.replaced.at(-1)).toBe("T38");
  });
});
