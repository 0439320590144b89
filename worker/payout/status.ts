/**
 * @module
 * Payout status rules. `quoted` (no withdrawal yet) → the withdrawal's statuses, which only
 * move forward: `created` → `processing` → `completed` | `failed`; `cancelled` from `created`.
 * Final statuses are never replaced (webhooks arrive duplicated and out of order).
 */
import type { PayoutStatus } from "../api/contract.ts";

const RANK: Record<PayoutStatus, number> = {
  quoted: 0,
  created: 1,
  processing: 2,
  completed: 3,
  failed: 3,
  cancelled: 3,
};

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
 */
export function acceptsPayoutStatus(current: PayoutStatus, incoming: PayoutStatus): boolean {
  if (FINAL_PAYOUT.has(current)) return false;
  return RANK[incoming] > RANK[current];
}
