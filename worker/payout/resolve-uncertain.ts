/**
 * @module
 * The read-back of an uncertain commit: a commit whose answer was lost, garbled or a 5xx may
 * have made the withdrawal, so the payout reads it by orderId (before any further commit, and
 * from the alarm) and adopts it, or returns to `quoted` when the service has none.
 *
 * Invariant: an uncertain payout is never failed and never committed again before this read
 * answered: the same orderId never pays twice.
 */

import { upstreamFor } from "../core/config/upstream.ts";
import { RECONCILE_READ } from "../core/converge/reconcile.ts";
import { type Outcome, success } from "../lib/outcome/outcome.ts";
import { UpstreamError } from "../service/errors.ts";
import type { Withdrawal } from "../service/types.ts";
import { upstreamFailure } from "../service/upstream-failure.ts";
import { applyWithdrawal } from "./apply-read.ts";
import { endUncertain } from "./follow.ts";
import { type PayoutHost, payoutRow } from "./payout-host.ts";
import { conflict, sameParams } from "./same-payout.ts";
import { savePayout } from "./save-payout.ts";
import type { PayoutRow } from "./store.ts";

/**
 * Reads the withdrawal of an uncertain commit by orderId: adopts it when the service has one
 * (reported to a refund's order), else returns the payout to `quoted` (the commit never
 * happened; committing again is safe). `priority`: the merchant's repeated commit waits on it
 * and gets an outcome; the alarm does not, and gets the upstream error thrown (so the budget's
 * refusal is deferred and a failure backs off, `core/converge/reconcile.ts` `readOne`).
 *
 * @example
 * const resolved = await resolveUncertain(host, row, "merchant");
 * if (!resolved.ok) return resolved;
 */
export async function resolveUncertain(
  host: PayoutHost,
  row: PayoutRow,
  priority: "merchant" | "reconcile" = "reconcile",
): Promise<Outcome<PayoutRow>> {
  let w: Withdrawal;
  try {
    w = await upstreamFor(host.config(), { ...RECONCILE_READ, priority }).getWithdrawal({
      orderId: row.orderId,
    });
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) {
      return success(
        await savePayout(
          host,
          { ...row, status: "quoted", updatedAt: new Date().toISOString() },
          row,
          "payout.not_committed",
          "the service has no withdrawal for this orderId: the commit never happened",
          () => endUncertain(host.sql, row.orderId),
        ),
      );
    }
    if (priority === "reconcile") throw error;
    return upstreamFailure(error, host.logger());
  }
  if (!sameParams(w, row)) return conflict(payoutRow(host), row.orderId);
  // The follow by orderId ends in the adoption's own transaction (`apply-withdrawal.ts`).
  return success((await applyWithdrawal(host, row, w, "payout.adopted")).row);
}
