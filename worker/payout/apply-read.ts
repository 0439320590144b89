/**
 * @module
 * Applies one withdrawal the payout learned (a commit's answer, one adopted by orderId, a
 * webhook's signed record, a reconciliation read): reads the payout's state, asks the pure
 * `applyWithdrawalRead` (`apply-withdrawal.ts`) what it changes, writes that and the read's
 * follow through the one apply sequence (`save-payout.ts` `writeChange`), then reports a
 * refund's withdrawal to its order.
 *
 * Invariants:
 * - runs inside the object's lane: the state read here is the one the write lands on (no await
 *   between the read of the known facts and the transaction);
 * - the read is recorded once, stale or not, in the same transaction as the row it changes;
 * - a refund's order hears every read, stale or not (a report that failed earlier is made
 *   again), after the change committed.
 */
import { knownFacts } from "../core/converge/followed.ts";
import type { Withdrawal } from "../service/types.ts";
import { applyWithdrawalRead } from "./apply-withdrawal.ts";
import { recordWithdrawalRead } from "./follow.ts";
import type { PayoutHost } from "./payout-host.ts";
import { reportToOrder } from "./refunds/report.ts";
import { writeChange } from "./save-payout.ts";
import type { PayoutRow } from "./store.ts";

/**
 * Applies a withdrawal to the payout (`type` names its event: `payout.committed`,
 * `payout.adopted`, `payout.status`, `payout.read`); answers the row as it is after, and
 * whether a refund's order heard it (true for a payout that is no refund).
 *
 * @example
 * const { row: committed } = await applyWithdrawal(host, row, withdrawal, "payout.committed");
 */
export async function applyWithdrawal(
  host: PayoutHost,
  row: PayoutRow,
  w: Withdrawal,
  type: string,
): Promise<{ row: PayoutRow; reported: boolean }> {
  const now = new Date().toISOString();
  const known = knownFacts(host.sql, "withdrawal", w.id);
  const read = applyWithdrawalRead({ row, known, now }, w);
  const applied = read.kind === "applied";
  await writeChange(host, {
    next: applied ? read.next : null,
    notifications: applied ? read.notifications : [],
    type,
    message: applied ? read.event : "",
    now,
    record: () => recordWithdrawalRead(host.sql, row.orderId, w, read.record),
  });
  const after = applied ? read.next : row;
  return { row: after, reported: await reportToOrder(host, after) };
}
