/**
 * @module
 * What a payout follows (`core/converge/followed.ts`): its withdrawal, read until the payout is
 * final, or, while a commit is `uncertain`, the withdrawal its orderId may have made
 * (`order:<orderId>`). Each function here runs inside the transaction of the change it belongs
 * to (`core/events/apply-sequence.ts` `record`), so the follow and the payout's row never
 * disagree.
 *
 * Invariant: nobody watches a payout live, and a withdrawal has no expiry: a payout's follow
 * is never hurried and kept until final (`keepUntil: null`).
 */
import {
  admitRead,
  type Followed,
  type FollowPlan,
  forgetFollowed,
} from "../core/converge/followed.ts";
import type { Withdrawal } from "../service/types.ts";
import type { WithdrawalRecord } from "./apply-withdrawal.ts";

/**
 * The followed target of an uncertain commit: the withdrawal is known only by its orderId.
 *
 * @example
 * byOrderId("po-1"); // { kind: "withdrawal", id: "order:po-1" }
 */
export function byOrderId(orderId: string): Followed {
  return { kind: "withdrawal", id: `order:${orderId}` };
}

/** True when `target` is an uncertain commit's follow by orderId (`byOrderId`). */
export function isByOrderId(target: Followed): boolean {
  return target.id.startsWith("order:");
}

const plan = (follow: boolean): FollowPlan => ({
  now: Date.now(),
  follow,
  keepUntil: null,
  watched: false,
});

/**
 * Records a withdrawal read as `applyWithdrawalRead` answered: its facts and next read, its
 * fingerprint (so the reconciler hands this very record back no more), and the end of the
 * uncertain commit's follow when the read resolved it.
 *
 * @example
 * record: () => recordWithdrawalRead(sql, row.orderId, withdrawal, read.record),
 */
export function recordWithdrawalRead(
  sql: SqlStorage,
  orderId: string,
  w: Withdrawal,
  record: WithdrawalRecord,
): void {
  if (record.endsUncertain) forgetFollowed(sql, byOrderId(orderId));
  admitRead(sql, "withdrawal", w.id, record.facts, plan(record.follow), w);
}

/**
 * Starts following an uncertain commit by its orderId (read back by the alarm until resolved).
 *
 * @example
 * record: () => followUncertain(sql, row.orderId),
 */
export function followUncertain(sql: SqlStorage, orderId: string): void {
  admitRead(
    sql,
    "withdrawal",
    byOrderId(orderId).id,
    { status: "created", received: "0" },
    plan(true),
  );
}

/**
 * Ends the follow of an uncertain commit (the service had no withdrawal for its orderId).
 *
 * @example
 * record: () => endUncertain(sql, row.orderId),
 */
export function endUncertain(sql: SqlStorage, orderId: string): void {
  forgetFollowed(sql, byOrderId(orderId));
}
