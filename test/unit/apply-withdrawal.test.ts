/**
 * `applyWithdrawalRead`: what one withdrawal read does to a payout (pure). A payout without a
 * withdrawal takes the first one read; then the status only moves forward along the service's
 * graph (`created → processing → completed | failed`, `created → cancelled`), finals are never
 * replaced, duplicate and out-of-order reads (and reads older than the known facts) change
 * nothing; every read says what to record (its facts, whether the withdrawal is read again,
 * whether an uncertain commit's follow ends), and the merchant hears each applied move once.
 */
import { describe, expect, it } from "vitest";
import type { PayoutStatus, WithdrawalStatus } from "../../packages/contract/src/http-api.ts";
import type { Facts } from "../../worker/core/converge/facts.ts";
import { applyWithdrawalRead, withdrawalFacts } from "../../worker/payout/apply-withdrawal.ts";
import type { PayoutRow } from "../../worker/payout/store.ts";
import type { Withdrawal } from "../../worker/service/types.ts";

const NOW = "2026-01-01T00:10:00.000Z";

const QUOTED: PayoutRow = {
  orderId: "po-1",
  kind: "payout",
  invoiceNumber: null,
  cryptoCurrencyCode: "TRX",
  network: "TRON",
  address: "T-addr",
  amount: "40",
  status: "quoted",
  quote: {
    quoteId: "q_1",
    orderId: "po-1",
    cryptoCurrencyCode: "TRX",
    address: "T-addr",
    amount: "40",
    autoConvert: null,
    totalDeduction: "41.1",
    fee: { feeNative: "1.1", feeCurrency: "TRX", feeInCryptoCurrencyCode: "1.1", feeUsd: null },
    expiresAt: "2026-01-01T00:01:00.000Z",
  },
  quotes: 1,
  withdrawal: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

function withdrawal(status: WithdrawalStatus, more: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id: "wd_1",
    orderId: "po-1",
    accountId: null,
    cryptoCurrencyCode: "TRX",
    address: "T-addr",
    amount: "40",
    status,
    transactionHash: null,
    feeAmount: null,
    debitedAmount: "41.1",
    createdAt: "2026-01-01T00:00:30.000Z",
    updatedAt: null,
    quoteId: "q_1",
    ...more,
  };
}

/** The payout at `status`: with its withdrawal (at that status) once committed. */
function row(status: PayoutStatus): PayoutRow {
  const committed = status !== "quoted" && status !== "uncertain";
  return { ...QUOTED, status, withdrawal: committed ? withdrawal(status) : null };
}

/** The state the lane reads: the row, and known facts that agree with it (none before a commit). */
function state(status: PayoutStatus, known?: Facts | null) {
  const r = row(status);
  return {
    row: r,
    known: known === undefined ? (r.withdrawal ? withdrawalFacts(r.withdrawal) : null) : known,
    now: NOW,
  };
}

const PAYOUT_STATUSES: PayoutStatus[] = [
  "quoted",
  "uncertain",
  "created",
  "processing",
  "completed",
  "failed",
  "cancelled",
];
const WITHDRAWAL_STATUSES: WithdrawalStatus[] = [
  "created",
  "processing",
  "completed",
  "failed",
  "cancelled",
];

/**
 * Every move a read makes, written out by hand (from docs/topups-and-payouts.md "Statuses"),
 * not derived from the code under test: payout status → the withdrawal statuses it moves to.
 */
const MOVES: Record<PayoutStatus, WithdrawalStatus[]> = {
  quoted: ["created", "processing", "completed", "failed", "cancelled"],
  uncertain: ["created", "processing", "completed", "failed", "cancelled"],
  created: ["processing", "completed", "failed", "cancelled"],
  processing: ["completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

describe("applyWithdrawalRead", () => {
  it("a commit's answer on a quoted payout: the withdrawal taken, quoted → created notified, followed", () => {
    const w = withdrawal("created");
    const read = applyWithdrawalRead(state("quoted"), w);
    expect(read).toEqual({
      kind: "applied",
      record: { facts: { status: "created", received: "0" }, follow: true, endsUncertain: false },
      next: { ...QUOTED, status: "created", withdrawal: w, updatedAt: NOW },
      notifications: [
        expect.objectContaining({
          type: "payout.status_changed",
          createdAt: NOW,
          data: expect.objectContaining({
            orderId: "po-1",
            withdrawalId: "wd_1",
            status: "created",
            previousStatus: "quoted",
            debitedAmount: "41.1",
          }),
        }),
      ],
      event: "withdrawal wd_1 is created; debited 41.1",
    });
  });

  it("a withdrawal read back for an uncertain commit is adopted, and ends the follow by orderId", () => {
    const read = applyWithdrawalRead(state("uncertain"), withdrawal("processing"));
    expect(read).toMatchObject({
      kind: "applied",
      record: { facts: { status: "processing", received: "0" }, follow: true, endsUncertain: true },
      next: { status: "processing", withdrawal: { id: "wd_1" } },
      notifications: [{ data: { status: "processing", previousStatus: "uncertain" } }],
    });
  });

  it("moves forward along the graph; a final status is recorded as no longer followed", () => {
    const steps: [PayoutStatus, WithdrawalStatus, boolean][] = [
      ["created", "processing", true],
      ["processing", "completed", false],
      ["processing", "failed", false],
      ["created", "cancelled", false],
    ];
    for (const [from, to, follow] of steps) {
      const w = withdrawal(to, { transactionHash: to === "completed" ? "0xabc" : null });
      const read = applyWithdrawalRead(state(from), w);
      expect(read, `${from} → ${to}`).toMatchObject({
        kind: "applied",
        record: { facts: { status: to }, follow, endsUncertain: false },
        next: { status: to, withdrawal: w, updatedAt: NOW },
        event: `withdrawal wd_1 is ${to}; debited 41.1`,
      });
      expect(read.kind === "applied" && read.notifications.map((n) => n.data)).toEqual([
        expect.objectContaining({ status: to, previousStatus: from }),
      ]);
    }
  });

  it("a read that skips a step still applies (created → completed): the service's graph only ranks", () => {
    const read = applyWithdrawalRead(state("created"), withdrawal("completed"));
    expect(read).toMatchObject({ kind: "applied", next: { status: "completed" } });
  });

  it("a duplicate read changes nothing: stale, only its facts and next read recorded", () => {
    for (const status of ["created", "processing"] as const) {
      const read = applyWithdrawalRead(state(status), withdrawal(status));
      expect(read, status).toEqual({
        kind: "stale",
        record: { facts: { status, received: "0" }, follow: true, endsUncertain: false },
      });
    }
  });

  it("a duplicate read of a final withdrawal is stale and stops the reads", () => {
    for (const status of ["completed", "failed", "cancelled"] as const) {
      const read = applyWithdrawalRead(state(status), withdrawal(status));
      expect(read, status).toEqual({
        kind: "stale",
        record: { facts: { status, received: "0" }, follow: false, endsUncertain: false },
      });
    }
  });

  it("an out-of-order read (an earlier status arriving late) changes nothing", () => {
    // With the known facts (as stored) and without them: the payout's own status rule alone
    // refuses it too.
    for (const known of [undefined, null]) {
      const late = applyWithdrawalRead(state("processing", known), withdrawal("created"));
      expect(late).toMatchObject({ kind: "stale", record: { follow: true } });
      const afterFinal = applyWithdrawalRead(state("completed", known), withdrawal("processing"));
      expect(afterFinal).toMatchObject({ kind: "stale", record: { follow: false } });
    }
  });

  it("a final status is never replaced, not even by another final one", () => {
    const pairs: [PayoutStatus, WithdrawalStatus][] = [
      ["completed", "failed"],
      ["failed", "completed"],
      ["cancelled", "completed"],
      ["failed", "cancelled"],
    ];
    for (const [from, to] of pairs) {
      expect(applyWithdrawalRead(state(from), withdrawal(to)).kind, `${from} ← ${to}`).toBe(
        "stale",
      );
    }
  });

  it("a read at the payout's rank keeps the stored withdrawal (its record is not replaced)", () => {
    const hashed = withdrawal("processing", { transactionHash: "0xnew", updatedAt: NOW });
    const read = applyWithdrawalRead(state("processing"), hashed);
    expect(read.kind).toBe("stale");
    expect("next" in read).toBe(false);
  });

  it("a read older than the known facts changes nothing, even on a payout it would move", () => {
    // The withdrawal is known `processing` (a webhook admitted it); a lagging `created` read
    // reaching a payout without a withdrawal must not take it.
    const read = applyWithdrawalRead(
      state("quoted", { status: "processing", received: "0" }),
      withdrawal("created"),
    );
    expect(read).toEqual({
      kind: "stale",
      record: { facts: { status: "created", received: "0" }, follow: true, endsUncertain: false },
    });
  });

  it("every payout status × every withdrawal status: applied exactly on the moves of the graph", () => {
    // Known facts as stored, and none (the payout's status rule alone decides).
    for (const known of [undefined, null]) {
      for (const from of PAYOUT_STATUSES) {
        for (const to of WITHDRAWAL_STATUSES) {
          const read = applyWithdrawalRead(state(from, known), withdrawal(to));
          const moves = MOVES[from].includes(to);
          expect(read.kind, `${from} ← ${to}, known ${known}`).toBe(moves ? "applied" : "stale");
          if (read.kind === "applied") {
            expect(read.next.status).toBe(to);
            expect(read.notifications).toHaveLength(1);
          }
        }
      }
    }
  });

  it("is pure: the state it is given is left as it was", () => {
    const given = state("created");
    const copy = structuredClone(given);
    applyWithdrawalRead(given, withdrawal("completed"));
    expect(given).toEqual(copy);
  });
});
