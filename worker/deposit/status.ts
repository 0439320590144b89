/**
 * @module
 * Deposit status rules, as the top-up sees them. The service publishes no transition graph;
 * webhooks arrive duplicated and out of order, so the rules only ever move forward:
 * - `completed`, `failed`, `expired`, `cancelled` are final: nothing replaces them;
 * - `created` never follows anything;
 * - `processing` and `suspended` may follow `created` or each other (ranked by the one
 *   deposit table, `core/converge/status-rank.ts`).
 */

import type { DepositStatus } from "../../packages/contract/src/http-api.ts";
import { DEPOSIT_RANK } from "../core/converge/status-rank.ts";

/** Statuses after which nothing changes. */
export const FINAL_DEPOSIT: ReadonlySet<DepositStatus> = new Set([
  "completed",
  "failed",
  "expired",
  "cancelled",
]);

/**
 * Whether an authoritative status may replace the stored one.
 *
 * @example
 * acceptsDepositStatus("completed", "processing"); // false: a late webhook never undoes completion
 * acceptsDepositStatus("suspended", "processing"); // true
 */
export function acceptsDepositStatus(current: DepositStatus, incoming: DepositStatus): boolean {
  if (FINAL_DEPOSIT.has(current) || incoming === current) return false;
  return DEPOSIT_RANK[incoming] >= DEPOSIT_RANK[current] && incoming !== "created";
}
