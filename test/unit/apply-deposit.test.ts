/**
 * `applyDepositRead`: what one deposit read does to a top-up (pure): older reads and reads
 * that move nothing are stale, a status only moves forward, a first settlement applies, and
 * the merchant hears each applied change once.
 */
import { describe, expect, it } from "vitest";
import type { DepositStatus } from "../../packages/contract/src/http-api.ts";
import type { Facts } from "../../worker/core/converge/facts.ts";
import { applyDepositRead, depositFacts } from "../../worker/deposit/apply-deposit.ts";
import type { DepositRow } from "../../worker/deposit/store.ts";
import type { Deposit, Settlement } from "../../worker/service/client.ts";

const NOW = "2026-01-01T00:10:00.000Z";

const ROW: DepositRow = {
  checkoutId: "co_d1",
  topUpId: "t1",
  customerId: "c1",
  orderId: "cc-t1",
  depositId: "dep_1",
  currency: {
    code: "USDT_TRC20",
    depositCommission: "0.005",
    decimalPlaces: 6,
    depositNetworkFee: "1",
  } as unknown as DepositRow["currency"],
  address: "T-addr",
  minimumAmount: "10",
  expiresAt: null,
  status: "created",
  settlement: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

/** 100 paid: 0.5 commission (0.005, rounded up), 1 network fee, 98.5 net. */
const SETTLED = {
  amountPaid: "100",
  commissionAmount: "0.5",
  depositNetworkFeeAmount: "1",
  netAmount: "98.5",
} as Settlement;

function deposit(status: DepositStatus | null, settlement: Settlement | null = null): Deposit {
  return { id: "dep_1", status, settlement, minimumAmount: null, expiresAt: null } as Deposit;
}

const state = (
  row: Partial<DepositRow> = {},
  known: Facts | null = depositFacts("created", null),
) => ({
  row: { ...ROW, ...row },
  known,
  now: NOW,
});

describe("applyDepositRead", () => {
  it("applies a forward status: the row moves, the merchant hears it, the event names the source", () => {
    const read = applyDepositRead(state(), deposit("processing"), "webhook");
    expect(read).toMatchObject({
      kind: "applied",
      next: { status: "processing", updatedAt: NOW, minimumAmount: "10" },
      event: "webhook: cc-t1 is processing",
      settlementUnexpected: false,
    });
    expect(read.kind === "applied" && read.notifications.map((n) => n.type)).toEqual([
      "deposit.status_changed",
    ]);
  });

  it("a completion with its settlement notifies deposit.completed once, with the exact amounts", () => {
    const read = applyDepositRead(state(), deposit("completed", SETTLED), "read");
    expect(read.kind).toBe("applied");
    if (read.kind !== "applied") return;
    expect(read.facts).toEqual({ status: "completed", received: "100" });
    expect(read.notifications.map((n) => n.type)).toEqual([
      "deposit.status_changed",
      "deposit.completed",
    ]);
    expect(read.settlementUnexpected).toBe(false);
  });

  it("is stale when older than the known facts, even if it would move the row", () => {
    const known = depositFacts("completed", deposit("completed", SETTLED));
    const read = applyDepositRead(state({}, known), deposit("processing"), "read");
    expect(read).toEqual({
      kind: "stale",
      facts: { status: "processing", received: "0" },
      incoming: "processing",
    });
  });

  it("is stale when it moves nothing: the same status, or a status the row already passed", () => {
    expect(applyDepositRead(state(), deposit("created"), "read").kind).toBe("stale");
    const done = state({ status: "completed", settlement: SETTLED }, null);
    expect(applyDepositRead(done, deposit("processing"), "read").kind).toBe("stale");
  });

  it("applies a first settlement at an unchanged status, and never takes a known one back", () => {
    const completed = state({ status: "completed" }, null);
    const settled = applyDepositRead(completed, deposit("completed", SETTLED), "read");
    expect(settled).toMatchObject({ kind: "applied", next: { settlement: SETTLED } });
    const known = state({ status: "processing", settlement: SETTLED }, null);
    const later = applyDepositRead(known, deposit("completed", null), "read");
    expect(later).toMatchObject({
      kind: "applied",
      next: { status: "completed", settlement: SETTLED },
    });
  });

  it("flags a settlement that disagrees with the commission rule (applied all the same)", () => {
    const odd = { ...SETTLED, commissionAmount: "2", netAmount: "97" } as Settlement;
    const read = applyDepositRead(state(), deposit("completed", odd), "webhook");
    expect(read).toMatchObject({ kind: "applied", settlementUnexpected: true });
  });
});
