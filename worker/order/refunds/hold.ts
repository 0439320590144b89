/**
 * @module
 * The order's refund *hold* (table `refund_hold` of the order object, one row): the refund in
 * progress or made, with its orderId and why it was made.
 *
 * Invariants:
 * - the hold is taken inside the order object, in its lane, atomically with the eligibility
 *   check (`takeHold`: no await between), before the refund is quoted; while it exists no new
 *   payment attempt or currency lock starts, and the refund address is frozen (`address.ts`);
 * - a held refund is resumed, never restarted: a second call finds the hold and gets the same
 *   orderId, because an earlier call under it may have committed a withdrawal whose answer was
 *   lost. Only a new orderId could pay twice, and one is minted only when no hold exists;
 * - the hold is released only when its refund ends `failed`/`cancelled` (recorded by
 *   `report.ts`) or definitely never reached the service (`refund-order.ts` abandons it), and
 *   never while that refund is recorded live.
 */

import { SingleRowTable, text } from "../../core/storage/table.ts";
import { refundNumber, refundOrderId } from "../../lib/ids/upstream-order-id.ts";
import { type Outcome, success } from "../../lib/outcome/outcome.ts";
import { type RefundFacts, type RefundPlan, refundPlan } from "./plan.ts";
import { isLive, type RefundReason, type RefundRecord, readRefunds } from "./records.ts";

/** The order's refund in progress or made (see the module invariants). */
export interface RefundHold {
  orderId: string;
  reason: RefundReason;
  startedAt: string;
}

/**
 * What the order answers a refund that asks to begin: its live refund (asking again returns
 * it), or the refund to pay now under the hold, `resumed` when the hold already existed.
 */
export type RefundStart =
  | { kind: "live"; refund: RefundRecord }
  | { kind: "held"; orderId: string; plan: RefundPlan; resumed: boolean };

/**
 * The order's `refund_hold` table (one row), described once (`core/storage/table.ts`).
 *
 * @example
 * sql.exec(REFUND_HOLD.ddl);
 */
export const REFUND_HOLD = new SingleRowTable<RefundHold>("refund_hold", {
  orderId: text("order_id"),
  reason: text<RefundReason>("reason"),
  startedAt: text("started_at"),
});

/**
 * The order's refund hold, or null.
 *
 * @example
 * readHold(sql)?.orderId; // "cc-1001-refund"
 */
export function readHold(sql: SqlStorage): RefundHold | null {
  return REFUND_HOLD.read(sql);
}

/**
 * Checks what the order allows and takes the hold in one synchronous step: the held refund's
 * orderId when a hold exists (resumed), else the order's next refund orderId (`…-refund`, then
 * `-refund-2`, … after failed ones). Call it inside the order's lane, with facts read in the
 * same step.
 *
 * @example
 * takeHold(sql, facts, { prefix: "cc", invoiceNumber: "1001" }, now);
 * // success({ kind: "held", orderId: "cc-1001-refund", plan, resumed: false })
 */
export function takeHold(
  sql: SqlStorage,
  facts: RefundFacts,
  order: { prefix: string; invoiceNumber: string },
  now: string,
): Outcome<RefundStart> {
  const plan = refundPlan(facts);
  if (!plan.ok) return plan;
  const hold = readHold(sql);
  // Resumed under its own orderId, never restarted under a new one (module invariants).
  if (hold) {
    return success({ kind: "held", orderId: hold.orderId, plan: plan.value, resumed: true });
  }
  const last = readRefunds(sql).reduce((n, r) => Math.max(n, refundNumber(r.orderId) ?? 0), 0);
  const orderId = refundOrderId(order.prefix, order.invoiceNumber, last + 1);
  REFUND_HOLD.write(sql, { orderId, reason: plan.value.reason, startedAt: now });
  return success({ kind: "held", orderId, plan: plan.value, resumed: false });
}

/**
 * Releases the hold of `orderId` unless that refund is live (recorded and not failed or
 * cancelled); true when released.
 *
 * @example
 * releaseHold(sql, "cc-1001-refund"); // after its withdrawal failed
 */
export function releaseHold(sql: SqlStorage, orderId: string): boolean {
  const hold = readHold(sql);
  if (!hold || hold.orderId !== orderId) return false;
  const refund = readRefunds(sql).find((r) => r.orderId === orderId);
  if (refund && isLive(refund)) return false;
  sql.exec("DELETE FROM refund_hold WHERE id = 1");
  return true;
}
