/**
 * @module
 * The Outbox capability of an object (order, top-up, payout): the merchant notifications it
 * owes, in its `outbox` table (`outbox-store.ts`: the table, its migrations, every row's state
 * reported to the index feed). It talks to its object through a narrow face (where and how to
 * deliver, given by the alarm), reports when it next needs to wake, and never touches the alarm: the
 * object's one `arm()` (`object-host.ts`) takes the earliest wake of all its parts.
 *
 * Invariants (`outbox-store.ts`): a notification is queued in the same transaction as the
 * change it reports, delivered at least once, and never dropped (kept `failed` until it is
 * redelivered).
 */
import type { NotificationView } from "../../lib/api/merchant-ops.ts";
import type { Logger } from "../../lib/log.ts";
import type { Notification } from "./outbox.ts";
import { deliverDue, enqueue, nextOutboxAt, outboxHas, redeliver } from "./outbox-store.ts";

/** Where and how the alarm delivers: the merchant's URL (null: rows are marked skipped). */
export interface OutboxDelivery {
  url: string | null;
  secret: string;
  log: Logger;
}

/**
 * An object's merchant-notification outbox.
 *
 * @example
 * const outbox = new Outbox(ctx.storage.sql);
 * outbox.enqueue(notes, Date.now()); // inside the change's transaction
 * await outbox.deliver({ url, secret, log }); // from the alarm
 */
export class Outbox {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Queues notifications, due now (inside the caller's transaction). */
  enqueue(notes: readonly Notification[], now: number): void {
    for (const note of notes) enqueue(this.#sql, note, now);
  }

  /** True when a notification of `type` was ever queued (rows are never deleted). */
  has(type: string): boolean {
    return outboxHas(this.#sql, type);
  }

  /** When the next undelivered notification is due, or null. */
  nextWake(): number | null {
    return nextOutboxAt(this.#sql);
  }

  /** Delivers every due notification once (the alarm; its due rows are selected at once). */
  async deliver(delivery: OutboxDelivery): Promise<void> {
    await deliverDue(this.#sql, { ...delivery, now: Date.now() });
  }

  /** Sends notification `id` again soon; null when this outbox does not hold it. */
  redeliver(id: string): NotificationView | null {
    return redeliver(this.#sql, id, Date.now());
  }
}
