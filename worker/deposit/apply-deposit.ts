/**
 * @module
 * What one deposit read does to a top-up, as a pure function (`applyDepositRead`): given the
 * top-up's row and the deposit's known facts as read in the lane and the service's deposit,
 * it answers whether the read is stale, or the row it leaves, the merchant notifications and
 * the event's words. The object (`deposit-object.ts`) only reads the state, writes the answer
 * through the one apply sequence (`core/events/apply-sequence.ts`) and publishes.
 *
 * Invariants:
 * - a read older than the known facts changes nothing (`core/converge/facts.ts`);
 * - the status only moves forward (`status.ts` `acceptsDepositStatus`); a settlement, once
 *   known, is never taken back by a read without one;
 * - a read that moves no status and brings no first settlement is stale: nothing is written
 *   but the read's facts and next read time.
 */
import { type Facts, isOlder } from "../core/converge/facts.ts";
import type { Notification } from "../core/events/outbox.ts";
import type { Deposit } from "../service/client.ts";
import { depositNotifications } from "./notifications.ts";
import { settlementAgrees, settlementView } from "./settlement.ts";
import { acceptsDepositStatus } from "./status.ts";
import type { DepositRow } from "./store.ts";

/**
 * The progress facts of a deposit read (`core/converge/facts.ts`).
 *
 * @example
 * depositFacts("completed", deposit); // { status: "completed", received: "50" }
 */
export function depositFacts(status: string, deposit: Deposit | null): Facts {
  return { status, received: deposit?.settlement?.amountPaid ?? "0" };
}

/** The top-up as the lane read it just before applying one deposit. */
export interface DepositState {
  row: DepositRow;
  /** The deposit's known facts (null before its first read). */
  known: Facts | null;
  now: string;
}

/** What one read does; `facts` are recorded either way. */
export type DepositRead =
  | { kind: "stale"; facts: Facts; incoming: string }
  | {
      kind: "applied";
      facts: Facts;
      /** The row as the read leaves it. */
      next: DepositRow;
      /** The merchant notifications to queue. */
      notifications: Notification[];
      /** The event's words. */
      event: string;
      /** True when the settlement disagrees with the published rule (worth a warning). */
      settlementUnexpected: boolean;
    };

/**
 * Applies one deposit read to the top-up: stale, or what it changes.
 *
 * @example
 * const read = applyDepositRead({ row, known, now }, deposit, "webhook");
 * if (read.kind === "applied") DEPOSIT_INFO.write(sql, read.next);
 */
export function applyDepositRead(
  state: DepositState,
  deposit: Deposit,
  source: "webhook" | "read",
): DepositRead {
  const { row, known, now } = state;
  const incoming = deposit.status ?? row.status;
  const facts = depositFacts(incoming, deposit);
  const older = known !== null && isOlder("deposit", facts, known);
  const statusMoves = !older && acceptsDepositStatus(row.status, incoming);
  const newSettlement = !older && deposit.settlement !== null && row.settlement === null;
  if (!statusMoves && !newSettlement) return { kind: "stale", facts, incoming };
  const next: DepositRow = {
    ...row,
    status: statusMoves ? incoming : row.status,
    settlement: deposit.settlement ?? row.settlement,
    minimumAmount: deposit.minimumAmount ?? row.minimumAmount,
    expiresAt: deposit.expiresAt ?? row.expiresAt,
    updatedAt: now,
  };
  return {
    kind: "applied",
    facts,
    next,
    notifications: depositNotifications(next, row, now),
    event: `${source}: ${row.orderId} is ${incoming}`,
    settlementUnexpected:
      next.settlement !== null && !settlementAgrees(settlementView(next.settlement), next.currency),
  };
}
