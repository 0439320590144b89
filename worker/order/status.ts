/**
 * @module
 * Invoice status rules for one attempt, as the merchant's order sees them.
 *
 * Invariants (webhooks arrive duplicated and out of order; that is normal):
 * - a settled status (`paid`, `overpaid`, `partially_paid`) is never replaced by a non-settled one;
 * - `paid` and `overpaid` are final;
 * - `partially_paid` moves only to `paid`, `overpaid`, or `partially_paid` with more received;
 * - `expired`/`failed`/`cancelled` end the attempt, but a later settled status still wins
 *   (money that really arrived is never ignored); the attempt's `ended` flag, though, is sticky
 *   (see `ledger.ts`): a stale settled state landing after the end never reopens the attempt;
 * - `created` never follows anything, and `processing`/`suspended` only follow `created` or
 *   each other.
 */
import type { InvoiceStatus } from "../../packages/contract/src/http-api.ts";

/** Statuses that carry a payment (the service's "settled"). */
export const SETTLED: ReadonlySet<InvoiceStatus> = new Set(["paid", "overpaid", "partially_paid"]);

/** Statuses after which the attempt takes no more payment from the shopper. */
export const ENDED: ReadonlySet<InvoiceStatus> = new Set(["expired", "failed", "cancelled"]);

/** Statuses after which nothing changes at all. */
export const FINAL: ReadonlySet<InvoiceStatus> = new Set(["paid", "overpaid"]);

/**
 * Whether an incoming status may replace the current one. `moreReceived` tells whether the
 * incoming object reports more crypto received than already applied.
 *
 * @example
 * acceptsStatus("paid", "processing", false) // false: a late `processing` never undoes `paid`
 * acceptsStatus("partially_paid", "paid", true) // true
 */
export function acceptsStatus(
  current: InvoiceStatus,
  incoming: InvoiceStatus,
  moreReceived: boolean,
): boolean {
  if (FINAL.has(current)) return false;
  if (incoming === current) return current === "partially_paid" && moreReceived;
  if (current === "partially_paid") return incoming === "paid" || incoming === "overpaid";
  if (ENDED.has(current)) return SETTLED.has(incoming);
  // Left: `created`, `processing`, `suspended`; any move but back to `created` is news.
  return incoming !== "created";
}
