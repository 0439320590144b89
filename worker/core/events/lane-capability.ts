/**
 * @module
 * The Lane capability of an object (order, top-up, payout): its one serial queue of upstream
 * work (`core/converge/lane.ts` `SerialLane`) with what the object does through it: creating
 * its business object once (`openOnce`) and handling one verified webhook (`webhook`, over
 * `core/converge/delivery.ts`). It talks to its object through a narrow face (storage, event
 * log, logger, the webhook's client, arm) and never touches the alarm itself.
 *
 * Invariants:
 * - at most one task of the lane runs at a time, in the order queued (`SerialLane`); a task
 *   never queues another on the same lane and awaits it;
 * - the lane holds nothing across restarts (its tasks are in memory, awaited by their
 *   callers): it owns no table and never needs to wake (`nextWake` is null);
 * - a webhook is acknowledged only as `delivery.ts` rules, and the object is armed after it,
 *   whatever the answer, so a 503 still brings the next read forward.
 */

import type { Logger } from "../../lib/log.ts";
import { success } from "../../lib/outcome/outcome.ts";
import type { UpstreamClient } from "../../service/client.ts";
import { applyDelivery, type Delivery, type DeliveryOutcome } from "../converge/delivery.ts";
import { SerialLane } from "../converge/lane.ts";
import type { UpstreamKind } from "../converge/status-rank.ts";
import type { EventLog } from "./event-log.ts";

/** What the lane needs of its object. */
export interface LaneHost {
  readonly sql: SqlStorage;
  /** The event log (it remembers the deliveries already applied). */
  readonly log: EventLog;
  logger(): Logger;
  /** The client a webhook's refetch reads with (one short attempt). */
  webhookClient(): UpstreamClient;
  /** Brings the object's one alarm forward to the earliest wake its capabilities report. */
  arm(): Promise<void>;
}

/** How one object handles a webhook about an upstream record of type `R`. */
export interface WebhookTarget<R> {
  /** True when the delivery is about this object (else `known: false`, nothing changes). */
  owns: () => boolean;
  /** Applies the delivery's record as a read; may answer itself (a mismatch, a failure). */
  admit: (record: R) => Promise<DeliveryOutcome | undefined>;
  /** Reads and applies; may answer itself (a mismatch, a failure): then not remembered. */
  refetch: (client: UpstreamClient) => Promise<DeliveryOutcome | undefined>;
}

/**
 * One object's serial lane of upstream work.
 *
 * @example
 * readonly lane = new Lane({ sql, log, logger, webhookClient, arm });
 * await lane.run(() => lockCurrency(host, currency));
 */
export class Lane {
  readonly #serial = new SerialLane();
  readonly #host: LaneHost;

  constructor(host: LaneHost) {
    this.#host = host;
  }

  /** Runs `task` after every task queued before it settled; resolves or rejects as it does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.#serial.run(task);
  }

  /** Never: the lane keeps no work across restarts. */
  nextWake(): number | null {
    return null;
  }

  /**
   * Creates the object's business object once. `existing` answers for an object already made
   * (and for every open queued behind the one that makes it); `create` runs in the lane, so
   * concurrent opens never create twice.
   *
   * @example
   * return lane.openOnce(() => (row() ? reopened : null), () => create(input));
   */
  openOnce<T>(existing: () => T | null, create: () => Promise<T>): Promise<T> {
    const found = existing();
    if (found !== null) return Promise.resolve(found);
    return this.run(async () => existing() ?? create());
  }

  /**
   * Handles one verified webhook delivery about an upstream object of `kind`, in the lane:
   * `known: false` unless `owns()`; else the signed record is applied by `admit` (no upstream
   * call) or, with none, `refetch` reads it with the webhook's client. Arms the object after.
   *
   * @example
   * return lane.webhook("deposit", delivery, {
   *   owns: () => row()?.depositId === delivery.id,
   *   admit: async (deposit) => apply(deposit),
   *   refetch: async (client) => apply(await client.getDeposit({ id: delivery.id })),
   * });
   */
  webhook<R>(
    kind: UpstreamKind,
    delivery: Delivery<R>,
    target: WebhookTarget<R>,
  ): Promise<DeliveryOutcome> {
    const host = this.#host;
    return this.run(async () => {
      if (!target.owns()) return success({ known: false, duplicate: false });
      const outcome = await applyDelivery({
        log: host.log,
        sql: host.sql,
        kind,
        delivery,
        logger: host.logger(),
        admit: target.admit,
        refetch: () => target.refetch(host.webhookClient()),
      });
      await host.arm();
      return outcome;
    });
  }
}
