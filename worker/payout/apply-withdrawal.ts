/**
 * @module
 * What one withdrawal read does to a payout, as a pure function (`applyWithdrawalRead`): given
 * the payout's row and the withdrawal's known facts as read in the lane, and the service's
 * withdrawal (a commit's answer, one adopted by orderId, a webhook's signed record, a
 * reconciliation read), it answers whether the read is stale, or the row it leaves, the
 * merchant notification and the event's words; and, either way, what to record of the read.
 * The steps (`apply-read.ts`) only read the state, write the answer through the one apply
 * sequence (`core/events/apply-sequence.ts`) and report a refund to its order.
 *
 * Invariants:
 * - a read older than the known facts changes nothing (`core/converge/facts.ts`);
 * - a payout without a withdrawal (`quoted`, `uncertain`) takes the first one it reads; once it
 *   has one, its status only moves forward (`status.ts` `acceptsPayoutStatus`): a final status
 *   is never replaced, and a read at the same rank changes nothing (its record included);
 * - a read that changes nothing is stale: only its facts and next read time are recorded;
 * - the read is recorded once, in the transaction of the row it changes (recorded twice, it
 *   would count as a second, unchanged read and double the gap to the next one,
 *   `core/converge/followed.ts` `admitRead`); the withdrawal is read again until the payout,
 *   as the read leaves it, is final;
 * - a read that reaches an `uncertain` payout ends the follow of its commit by orderId.
 */
import { type Facts, isOlder } from "../core/converge/facts.ts";
import type { Notification } from "../core/events/outbox.ts";
import type { Withdrawal } from "../service/types.ts";
import { acceptsPayoutStatus, FINAL_PAYOUT } from "./status.ts";
import type { PayoutRow } from "./store.ts";
import { payoutNotification } from "./view.ts";

/**
 * The progress facts of a withdrawal read (`core/converge/facts.ts`): withdrawals carry no
 * amount received.
 *
 * @example
 * withdrawalFacts(withdrawal); // { status: "processing", received: "0" }
 */
export function withdrawalFacts(w: Pick<Withdrawal, "status">): Facts {
  return { status: w.status, received: "0" };
}

/** The payout as the lane read it just before applying one withdrawal. */
export interface WithdrawalState {
  row: PayoutRow;
  /** The withdrawal's known facts (null before its first read). */
  known: Facts | null;
  now: string;
}

/** What to record of a read, stale or not (`follow.ts` `recordWithdrawalRead`). */
export interface WithdrawalRecord {
  /** The read's facts (`admitRead` keeps the known ones when these are older). */
  facts: Facts;
  /** True while the payout, as the read leaves it, is not final: the withdrawal is read again. */
  follow: boolean;
  /** True when the read reached an `uncertain` payout: its follow by orderId ends. */
  endsUncertain: boolean;
}

/** What one read does; `record` is recorded either way. */
export type WithdrawalRead =
  | { kind: "stale"; record: WithdrawalRecord }
  | {
      kind: "applied";
      record: WithdrawalRecord;
      /** The row as the read leaves it. */
      next: PayoutRow;
      /** The merchant notifications to queue (`payout.status_changed` when the status moved). */
      notifications: Notification[];
      /** The event's words. */
      event: string;
    };

/**
 * Applies one withdrawal read to the payout: stale, or what it changes.
 *
 * @example
 * const read = applyWithdrawalRead({ row, known, now }, withdrawal);
 * if (read.kind === "applied") writePayout(sql, read.next);
 */
export function applyWithdrawalRead(state: WithdrawalState, w: Withdrawal): WithdrawalRead {
  const { row, known, now } = state;
  const facts = withdrawalFacts(w);
  const older = known !== null && isOlder("withdrawal", facts, known);
  const accepts = acceptsPayoutStatus(row.status, w.status);
  const endsUncertain = row.status === "uncertain";
  if (older || (row.withdrawal && !accepts)) {
    return {
      kind: "stale",
      record: { facts, follow: !FINAL_PAYOUT.has(row.status), endsUncertain },
    };
  }
  const next: PayoutRow = {
    ...row,
    status: accepts ? w.status : row.status,
    withdrawal: w,
    updatedAt: now,
  };
  return {
    kind: "applied",
    record: { facts, follow: !FINAL_PAYOUT.has(next.status), endsUncertain },
    next,
    notifications: next.status !== row.status ? [payoutNotification(next, row.status, now)] : [],
    event: `withdrawal ${w.id} is ${w.status}; debited ${w.debitedAmount ?? "?"}`,
  };
}
