/**
 * @module
 * Payout status rules. `quoted` (no withdrawal yet) → `uncertain` (a commit was sent but its
 * answer was lost, garbled or a 5xx: the withdrawal may exist) → the withdrawal's statuses,
 * which move forward only, ranked by the one withdrawal table (`core/converge/status-rank.ts`):
 * `created` → `processing` → `completed` | `failed`; `cancelled` from `created`.
 * Final statuses are never replaced (webhooks arrive duplicated and out of order). An
 * `uncertain` payout goes back to `quoted` only when a read by orderId finds no withdrawal.
 */

import type { PayoutStatus } from "../../packages/contract/src/http-api.ts";
import { WITHDRAWAL_RANK } from "../core/converge/status-rank.ts";

const rank = (status: PayoutStatus): number =>
  status === "quoted" ? -2 : status === "uncertain" ? -1 : WITHDRAWAL_RANK[status];

/** Statuses after which nothing changes. */
export const FINAL_PAYOUT: ReadonlySet<PayoutStatus> = new Set([
  "completed",
  "failed",
  "cancelled",
]);

/**
 * Whether an authoritative withdrawal status may replace the stored one.
 *
 * @example
 * acceptsPayoutStatus("completed", "processing"); // false
 * acceptsPayoutStatus("quoted", "created"); // true
 * acceptsPayoutStatus("uncertain", "created"); // true
 */
export function acceptsPayoutStatus(current: PayoutStatus, incoming: PayoutStatus): boolean {
  if (FINAL_PAYOUT.has(current)) return false;
  return rank(incoming) > rank(current);
}
