/**
 * @module
 * `DepositObject`: the Durable Object that owns one top-up (one standalone deposit address of
 * the service for one merchant top-up id), named by `checkoutIdFor("deposit", topUpId)`.
 *
 * Same shape as `OrderObject`: every upstream call of the top-up runs in the object's lane
 * (`core/converge/lane.ts`), so concurrent opens make one upstream `POST /deposit` (orderId
 * `<prefix>-<topUpId>`), webhooks and reconciliation reads apply one at a time, and SSE
 * subscribers hear each change from the one place that makes it. A webhook's whole deposit is a
 * read: admitted only if not older than what is known, with no upstream call; a webhook without
 * one is a prompt, acknowledged only when a re-read covers it (`core/converge/delivery.ts`).
 * The alarm reads the deposit until it is final, so a lost webhook still converges. What a
 * read does to the top-up is the pure `applyDepositRead` (`apply-deposit.ts`); the object
 * reads the state, writes the answer through the one apply sequence and publishes.
 */

import type { DepositSnapshot } from "../../packages/contract/src/http-api.ts";
import type { CoreEnv } from "../core/config/core-env.ts";
import { upstreamFor } from "../core/config/upstream.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import {
  admitRead,
  type Followed,
  type FollowPlan,
  knownFacts,
} from "../core/converge/followed.ts";
import { RECONCILE_READ } from "../core/converge/reconcile.ts";
import { LATE_PAYMENT_MS } from "../core/converge/schedule.ts";
import { EventStream } from "../core/events/event-stream.ts";
import { WatchedDurableObject } from "../core/events/hosted-durable-object.ts";
import type { Appended } from "../core/events/live-events.ts";
import { type HostedObject, ObjectHost, type ObjectSchema } from "../core/events/object-host.ts";
import type { ListedRecord } from "../core/reconciler/reconciler-rpc.ts";
import type { StreamOpening } from "../core/streams/stream-hub-rpc.ts";
import { depositOrderId } from "../lib/ids/upstream-order-id.ts";
import { webhookUrl } from "../lib/ids/webhook-url.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { CreatedDeposit, Deposit } from "../service/client.ts";
import { upstreamFailure } from "../service/upstream-failure.ts";
import { applyDepositRead, depositFacts } from "./apply-deposit.ts";
import type { DepositRpc, OpenDeposit } from "./deposit-rpc.ts";
import { depositNotifications } from "./notifications.ts";
import { buildDepositSnapshot } from "./snapshot.ts";
import { FINAL_DEPOSIT } from "./status.ts";
import { DEPOSIT_INFO, DEPOSIT_SCHEMA, type DepositRow } from "./store.ts";

/** A deposit without an expiry is still read this long after it was opened (then given up). */
const OPEN_DEPOSIT_FOLLOW_MS = 30 * 24 * 3_600_000;

/** The top-up's schema: its table, the marker that says it exists, how it is named. */
const DEPOSIT_OBJECT: ObjectSchema = {
  ddl: DEPOSIT_SCHEMA,
  marker: "deposit_info",
  notifier: "deposit",
  namespace: "DEPOSITS",
};

export class DepositObject extends WatchedDurableObject<CoreEnv> implements DepositRpc {
  /** The capabilities and the one alarm (`core/events/object-host.ts`). */
  readonly host: ObjectHost<CoreEnv> = new ObjectHost(this.ctx, () => this.env, DEPOSIT_OBJECT, {
    watched: (): boolean => this.events.watched,
    readFollowed: (target) => this.#readFollowed(target),
    applyListed: (listed) => this.#applyListed(listed),
  } satisfies HostedObject);
  /** Watchers; when the last leaves, the reconciler hears the top-up is no longer watched. */
  readonly events = new EventStream<DepositSnapshot>(this.host.log, this.host.streamHost);

  #row(): DepositRow | null {
    return this.host.hasSchema ? DEPOSIT_INFO.read(this.ctx.storage.sql) : null;
  }

  #snapshotAt(row: DepositRow, seq: number): DepositSnapshot {
    const config = this.host.config();
    return buildDepositSnapshot(row, {
      displayName: config.DISPLAY_NAME,
      sandbox: config.SANDBOX,
      seq,
      now: new Date().toISOString(),
    });
  }

  /** Appends an event with the snapshot it produced (inside the caller's transaction). */
  #append(row: DepositRow, type: string, message: string): Appended<DepositSnapshot> {
    return this.events.append(type, message, (seq) => this.#snapshotAt(row, seq));
  }

  /** Pushes a committed event to every subscriber. */
  #publish(event: Appended<DepositSnapshot>, type: string): DepositSnapshot {
    const { topUpId, status } = event.snapshot;
    return this.events.publish(event, type, { topUpId, status });
  }

  /** A second open of a top-up: its existing deposit, or 409 when it asks another currency. */
  #reopen(
    row: DepositRow,
    input: OpenDeposit,
  ): Outcome<{ created: boolean; snapshot: DepositSnapshot }> {
    if (row.currency.code !== input.currency.code) {
      return failure(
        409,
        "checkout_conflict",
        `Top-up ${input.topUpId} already has a ${row.currency.code} deposit address; it cannot reuse it for ${input.currency.code}.`,
      );
    }
    return success({ created: false, snapshot: this.#snapshotAt(row, this.host.log.lastSeq()) });
  }

  /** Opens the top-up: creates the upstream deposit once, or returns the existing one. */
  async open(
    input: OpenDeposit,
  ): Promise<Outcome<{ created: boolean; snapshot: DepositSnapshot }>> {
    if (!this.host.hasSchema) this.host.ensureSchema();
    return this.host.lane.openOnce(
      () => {
        const row = this.#row();
        return row ? this.#reopen(row, input) : null;
      },
      async () => {
        const outcome = await this.#create(input);
        return outcome.ok ? success({ created: true, snapshot: outcome.value }) : outcome;
      },
    );
  }

  async #create(input: OpenDeposit): Promise<Outcome<DepositSnapshot>> {
    const config = this.host.config();
    const orderId = depositOrderId(config.ORDER_ID_PREFIX, input.topUpId);
    let deposit: CreatedDeposit;
    try {
      deposit = await upstreamFor(config, { client: input.client }).createDeposit({
        orderId,
        cryptoCurrencyCode: input.currency.code,
        webhookUrl: webhookUrl(config.PUBLIC_BASE_URL),
        ...(input.customerId ? { customerId: input.customerId } : {}),
      });
    } catch (error) {
      return upstreamFailure(error, this.host.logger());
    }
    if (deposit.cryptoCurrencyCode && deposit.cryptoCurrencyCode !== input.currency.code) {
      return failure(
        409,
        "checkout_conflict",
        `The payment service already has ${orderId} as a ${deposit.cryptoCurrencyCode} deposit.`,
      );
    }
    const now = new Date().toISOString();
    const row: DepositRow = {
      checkoutId: input.checkoutId,
      topUpId: input.topUpId,
      customerId: input.customerId,
      orderId,
      depositId: deposit.id,
      currency: input.currency,
      address: deposit.address,
      minimumAmount: deposit.minimumAmount,
      expiresAt: deposit.expiresAt,
      status: deposit.status ?? "created",
      settlement: deposit.settlement,
      createdAt: now,
      updatedAt: now,
    };
    // The service may answer with a deposit that already moved on (its first answer was lost,
    // or this object was reset mid-create): the merchant hears that state as from `created`.
    const notes = depositNotifications(row, { status: "created", settlement: null }, now);
    const sql = this.ctx.storage.sql;
    const event = await this.host.applyChange(
      {
        stale: false,
        record: () =>
          admitRead(
            sql,
            "deposit",
            row.depositId,
            depositFacts(row.status, deposit),
            this.#plan(row),
          ),
        write: () => {
          DEPOSIT_INFO.write(sql, row);
          return notes;
        },
        append: () =>
          this.#append(
            row,
            "deposit.created",
            `deposit ${deposit.id} opened (service order ${orderId})`,
          ),
      },
      (appended) => this.#publish(appended, "deposit.created"),
    );
    return success(event!.snapshot);
  }

  /** The current snapshot, or 404 for an unknown top-up. */
  async view(): Promise<Outcome<DepositSnapshot>> {
    const row = this.#row();
    if (!row) return failure(404, "not_found", "No such top-up.");
    return success(this.#snapshotAt(row, this.host.log.lastSeq()));
  }

  /** How the deposit is followed after a read (until final; expiry + the late-payment window). */
  #plan(row: DepositRow): FollowPlan {
    const now = Date.now();
    const end = row.expiresAt
      ? Date.parse(row.expiresAt) + LATE_PAYMENT_MS
      : Date.parse(row.createdAt) + OPEN_DEPOSIT_FOLLOW_MS;
    return {
      now,
      follow: !FINAL_DEPOSIT.has(row.status),
      keepUntil: Number.isFinite(end) ? end : now + OPEN_DEPOSIT_FOLLOW_MS,
      watched: this.events.watched,
    };
  }

  async #readFollowed(target: Followed): Promise<void> {
    const row = this.#row();
    if (!row || target.kind !== "deposit" || row.depositId !== target.id) return;
    const deposit = await upstreamFor(this.host.config(), RECONCILE_READ).getDeposit({
      id: target.id,
    });
    await this.#applyFacts(deposit, "read");
  }

  /** A listed deposit from the reconciler, applied as a read (inside the lane). */
  async #applyListed(listed: ListedRecord): Promise<void> {
    if (listed.kind !== "deposit" || this.#row()?.depositId !== listed.record.id) return;
    await this.#applyFacts(listed.record, "read");
  }

  /**
   * Handles a verified `deposit.statusChanged`: its signed deposit is admitted and applied as a
   * read (refetched only when the delivery carries no whole deposit); 2xx only as
   * `Lane.webhook` rules (`core/events/lane-capability.ts`).
   */
  applyDepositWebhook(delivery: Delivery<Deposit>): Promise<DeliveryOutcome> {
    const apply = async (deposit: Deposit) => {
      await this.#applyFacts(deposit, "webhook");
      return undefined;
    };
    return this.host.lane.webhook("deposit", delivery, {
      owns: () => this.#row()?.depositId === delivery.id,
      admit: apply,
      refetch: async (client) => apply(await client.getDeposit({ id: delivery.id })),
    });
  }

  /**
   * Applies an authoritative deposit (`apply-deposit.ts` `applyDepositRead`: stale, or what it
   * changes) through the one apply sequence; the alarm is set after the write committed
   * (awaited, so the caller answers only once it is set).
   */
  async #applyFacts(deposit: Deposit, source: "webhook" | "read"): Promise<void> {
    // Re-read: another call may have changed the row while the fetch was in flight.
    const row = this.#row()!;
    const sql = this.ctx.storage.sql;
    const known = knownFacts(sql, "deposit", row.depositId);
    const read = applyDepositRead({ row, known, now: new Date().toISOString() }, deposit, source);
    const log = this.host.logger();
    const { topUpId } = row;
    if (read.kind === "stale") {
      log.debug("deposit.unchanged", { topUpId, status: row.status, incoming: read.incoming });
    } else if (read.settlementUnexpected) {
      // The service is authoritative; a disagreement with the published rule is worth a look.
      log.warn("deposit.settlement_unexpected", { topUpId });
    }
    await this.host.applyChange(
      {
        stale: read.kind === "stale",
        // Planned with the new status: a final deposit is no longer read.
        record: () =>
          admitRead(
            sql,
            "deposit",
            row.depositId,
            read.facts,
            this.#plan(read.kind === "stale" ? row : read.next),
            // Its fingerprint: the reconciler hands this very record back no more.
            deposit,
          ),
        write: () => {
          if (read.kind === "stale") return [];
          DEPOSIT_INFO.write(sql, read.next);
          return read.notifications;
        },
        append: () =>
          read.kind === "stale" ? null : this.#append(read.next, "deposit.status", read.event),
      },
      (appended) => this.#publish(appended, "deposit.status"),
    );
  }

  /** A stream hub opens a stream of this top-up (`WatchedRpc`, `core/events/event-stream.ts`). */
  streamOpen(hub: string, key: string, lastId: number | null): Promise<StreamOpening> {
    const row = this.#row();
    const render = row ? (seq: number) => this.#snapshotAt(row, seq) : null;
    return this.events.open(hub, key, lastId, render, "No such top-up.");
  }
}
