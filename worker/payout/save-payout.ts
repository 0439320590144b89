/**
 * @module
 * How every change of a payout is written: the row, the merchant notification, the event and
 * what the change follows, through the one apply sequence (`core/events/apply-sequence.ts`),
 * so they commit together or not at all. The quote and commit steps save with `savePayout`;
 * a withdrawal read (`apply-read.ts`) writes what `applyWithdrawalRead` answered with
 * `writeChange`.
 *
 * Invariants:
 * - nobody watches a payout live: its events are the merchant's log, published nowhere;
 * - a change that records a read or a follow (`record`) arms the alarm after it (the next read
 *   is scheduled); one that records none schedules nothing, and only a queued notification
 *   wakes the alarm (now, awaited: the caller answers only after it is set).
 */
import type { Notification } from "../core/events/outbox.ts";
import type { PayoutHost } from "./payout-host.ts";
import { type PayoutRow, writePayout } from "./store.ts";
import { payoutNotification, payoutView } from "./view.ts";

/** One change of a payout, as a step describes it. */
export interface PayoutChange {
  /** The row as the change leaves it; null when only `record` runs (a stale read). */
  next: PayoutRow | null;
  notifications: readonly Notification[];
  /** The event's type and words (no event when `next` is null). */
  type: string;
  message: string;
  now: string;
  /** Records the read or follow the change carries, in its transaction. */
  record?: () => void;
}

/**
 * Writes one change through the apply sequence.
 *
 * @example
 * await writeChange(host, { next, notifications, type: "payout.status", message, now, record });
 */
export async function writeChange(host: PayoutHost, change: PayoutChange): Promise<void> {
  const { next, type, message, now } = change;
  await host.applyChange(
    {
      stale: next === null,
      record: change.record ?? (() => {}),
      write: () => {
        if (next) writePayout(host.sql, next);
        return change.notifications;
      },
      append: () =>
        next ? host.log.append(type, message, () => JSON.stringify(payoutView(next)), now) : null,
      arm: change.record !== undefined,
    },
    // Nobody watches a payout live: its events are the merchant's log.
    () => {},
  );
  if (next) host.logger().debug(type, { orderId: next.orderId, status: next.status });
}

/**
 * Saves the payout as a step leaves it, with `payout.status_changed` when its status moved
 * from `previous` (none for a new payout); answers the row saved.
 *
 * @example
 * await savePayout(host, { ...row, status: "quoted", updatedAt }, row, "payout.not_committed", words);
 */
export async function savePayout(
  host: PayoutHost,
  next: PayoutRow,
  previous: PayoutRow | null,
  type: string,
  message: string,
  record?: () => void,
): Promise<PayoutRow> {
  const now = new Date().toISOString();
  const moved = previous !== null && previous.status !== next.status;
  const notifications = moved ? [payoutNotification(next, previous.status, now)] : [];
  await writeChange(host, { next, notifications, type, message, now, record });
  return next;
}
