/**
 * @module
 * The one apply sequence every object (order, top-up, payout) runs for a change it learned or
 * made: stale? → write, enqueue, append → publish → arm. Written once here, so no object
 * orders these steps its own way.
 *
 * Invariants:
 * - the rows, the read's facts, the merchant notifications and the event are one SQLite
 *   transaction: a watcher, the merchant and the account's index learn a change together,
 *   or not at all;
 * - the notifications are queued before the event is appended (the order's summary in the
 *   index feed, written with the event, says whether `order.paid` was sent);
 * - a stale change (a read older than the known facts, or one that changes nothing) writes
 *   only what `record` writes (the read's facts and next read time) and queues nothing;
 * - the event is published only after its transaction committed (no watcher sees a change
 *   that may roll back) and before the first await (watchers hear events in `seq` order);
 * - the alarm is armed last: woken now when notifications were queued, else brought forward
 *   to the earliest wake the object's parts report (never postponed), unless the change
 *   schedules nothing (`arm: false`).
 */
import type { Notification } from "./outbox.ts";
import type { Outbox } from "./outbox-capability.ts";

/** What the sequence needs of its object: storage, its outbox and the one alarm. */
export interface ApplyHost {
  readonly storage: DurableObjectStorage;
  /** Where the change's notifications are queued (`outbox-capability.ts`). */
  readonly outbox: Pick<Outbox, "enqueue">;
  /** Brings the alarm forward to the earliest wake any part reports (never later). */
  arm(): Promise<void>;
  /** Makes the alarm fire now (queued notifications are due). */
  wakeNow(): Promise<void>;
}

/** One change, as the object describes it; every step runs inside one transaction. */
export interface Change<E> {
  /** True when the change is older than what is known or changes nothing: only `record` runs. */
  stale: boolean;
  /** Records the read's facts and next read time (runs whether stale or not). */
  record(): void;
  /** Writes the change's rows; answers the merchant notifications it produces (not stale). */
  write(): readonly Notification[];
  /** Appends the change's event, or null for none (runs last in the transaction). */
  append(): E | null;
  /**
   * False when the change schedules nothing (a payout save that records no read): then only
   * queued notifications wake the alarm.
   */
  arm?: boolean;
}

/**
 * Runs one change through the sequence; answers its event (null when none was appended).
 *
 * @example
 * const event = await applyChange(host, {
 *   stale: older,
 *   record: () => admitRead(sql, "deposit", id, facts, plan),
 *   write: () => { DEPOSIT_INFO.write(sql, next); return notes; },
 *   append: () => (older ? null : appendSnapshot(log, "deposit.status", message, render)),
 * }, (event) => hub.broadcast(event.frame, event.snapshot.final));
 */
export async function applyChange<E>(
  host: ApplyHost,
  change: Change<E>,
  publish: (event: E) => void,
): Promise<E | null> {
  const { event, queued } = host.storage.transactionSync(() => {
    change.record();
    const notes = change.stale ? [] : change.write();
    host.outbox.enqueue(notes, Date.now());
    return { event: change.append(), queued: notes.length > 0 };
  });
  if (event !== null) publish(event);
  if (queued) await host.wakeNow();
  else if (change.arm !== false) await host.arm();
  return event;
}
