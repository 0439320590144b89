/**
 * @module
 * What every Durable Object of the worker shares (order, top-up, payout): its SQLite schema made
 * on first use, the event log, the configuration and logger, the serial lane of upstream work
 * (`core/converge/lane.ts`), creating its business object once (`openOnce`), the face its
 * EventStream capability talks to (`streamHost`; `event-stream.ts`: watchers, publishing, the
 * stream route), the one webhook path (`applyWebhook`, over `core/converge/delivery.ts`), and
 * the one alarm that delivers the merchant-notification outbox, reconciles followed
 * upstream objects (`core/converge/reconcile.ts`) and reports to the account's index
 * (`index-feed.ts`).
 *
 * Invariants:
 * - an object that never opened (a read of an unknown id) creates no storage: the schema is
 *   made by `ensureSchema()` in the call that creates the business object, and on later
 *   constructions only if the marker table exists (re-running the idempotent DDL then also adds
 *   tables of newer versions, and the numbered migrations not yet applied bring older tables
 *   to the newest shape), always under `blockConcurrencyWhile`;
 * - one alarm per object, owned here and by no part: each part reports when it next needs to
 *   wake (the outbox's next retry, the index feed's next report, the Follower's next read,
 *   none with a reconciler binding), and `armAlarm` takes the earliest, never later than any;
 * - with the account's reconciler (`reconciler/`), every change to a followed object's
 *   schedule or watched state is registered with it when the alarm is armed (the Follower
 *   capability, `core/events/follower.ts`: only what changed since the last registration); the
 *   reconciler reads in batches and calls back `admitListed` / `reconcileRead`. A forced
 *   alarm still reads what is due here itself;
 * - every change runs through the one apply sequence (`applyChange`, `apply-sequence.ts`).
 */
import { DurableObject } from "cloudflare:workers";
import type { NotificationView } from "../../lib/api/merchant-ops.ts";
import type { LogFields, Logger } from "../../lib/log.ts";
import { success } from "../../lib/outcome/outcome.ts";
import type { UpstreamClient } from "../../service/client.ts";
import { accountKey } from "../account/account-key.ts";
import { type Config, notificationSecret, parseConfig } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { configLogger } from "../config/logger.ts";
import { upstreamFor, WEBHOOK_REFETCH } from "../config/upstream.ts";
import { applyDelivery, type Delivery, type DeliveryOutcome } from "../converge/delivery.ts";
import {
  FOLLOWED_MIGRATIONS,
  FOLLOWED_SCHEMA,
  type Followed,
  hurryReads,
} from "../converge/followed.ts";
import { SerialLane } from "../converge/lane.ts";
import { readOne, reconcileDue } from "../converge/reconcile.ts";
import { WATCHED_READ_MS } from "../converge/schedule.ts";
import type { UpstreamKind } from "../converge/status-rank.ts";
import { accountStub, reconcilerStub } from "../objects/stubs.ts";
import type { FollowerNamespace, FollowerRpc, ListedRecord } from "../reconciler/reconciler-rpc.ts";
import { MIGRATIONS_SCHEMA, type MigrationTrack, migrate } from "../storage/migrations.ts";
import { type ApplyHost, applyChange as applySequence, type Change } from "./apply-sequence.ts";
import { EventLog } from "./event-log.ts";
import type { EventStreamHost } from "./event-stream.ts";
import { Follower } from "./follower.ts";
import { deliverFeed, nextFeedAt } from "./index-feed.ts";
import { type NotifierKind, notificationSource } from "./notifier-rpc.ts";
import { Outbox } from "./outbox-capability.ts";
import { backfillFeed, OUTBOX_MIGRATIONS } from "./outbox-store.ts";

/**
 * The schema of a subclass: its DDL, the table whose presence means "this object exists", and
 * what kind of notification source it is (its name in the account's notification log).
 */
export interface ObjectSchema {
  ddl: string;
  marker: string;
  notifier: NotifierKind;
  /** The binding of this object's namespace (the reconciler calls it back through it). */
  namespace: FollowerNamespace;
  /** The numbered migrations of the object's own tables (run after the shared tracks). */
  migrations?: readonly MigrationTrack[];
}

/** Every object's shared tables' migrations: the outbox's, then the followed objects'. */
const SHARED_MIGRATIONS: readonly MigrationTrack[] = [OUTBOX_MIGRATIONS, FOLLOWED_MIGRATIONS];

export abstract class StoredObject<E extends CoreEnv = CoreEnv>
  extends DurableObject<E>
  implements FollowerRpc
{
  readonly log: EventLog;
  /** Everything that reads or writes upstream state runs here, one task at a time. */
  readonly lane = new SerialLane();
  readonly #schema: ObjectSchema;
  #hasSchema = false;

  constructor(ctx: DurableObjectState, env: E, schema: ObjectSchema) {
    super(ctx, env);
    this.#schema = schema;
    this.#follower = new Follower({
      sql: ctx.storage.sql,
      namespace: schema.namespace,
      owner: ctx.id.toString(),
      watched: () => this.watched(),
      reconciled: () => Boolean(this.env.RECONCILERS),
      reconciler: () => reconcilerStub(this.env, accountKey(this.config())),
    });
    this.log = new EventLog(ctx.storage.sql);
    ctx.blockConcurrencyWhile(async () => {
      const { n } = ctx.storage.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
          schema.marker,
        )
        .one();
      if (n > 0) {
        this.ensureSchema();
        // An object made before the account index: its notifications join the log now.
        if (backfillFeed(ctx.storage.sql, Date.now()) > 0) await this.armAlarm();
      }
    });
  }

  /** True once this object holds a business object. */
  protected get hasSchema(): boolean {
    return this.#hasSchema;
  }

  /**
   * Creates the tables (idempotent, the newest shape) and runs the numbered migrations this
   * object has not applied yet (`core/storage/migrations.ts`): the shared tracks, then its own.
   */
  protected ensureSchema(): void {
    const sql = this.ctx.storage.sql;
    sql.exec(this.#schema.ddl + FOLLOWED_SCHEMA + MIGRATIONS_SCHEMA);
    migrate(sql, [...SHARED_MIGRATIONS, ...(this.#schema.migrations ?? [])]);
    this.#hasSchema = true;
  }

  protected config(): Config {
    const result = parseConfig(this.env);
    if (!result.ok) throw new Error(`configuration invalid: ${result.problems.join("; ")}`);
    return result.config;
  }

  protected logger(): Logger {
    return configLogger(this.config());
  }

  /** True while someone watches this object live (an open SSE stream): reads come faster. */
  protected watched(): boolean {
    return false;
  }

  /**
   * Reads one followed upstream object from the service and applies it (runs inside the lane;
   * throws the upstream error when the read fails). Objects that follow nothing keep the default.
   */
  protected async readFollowed(_target: Followed): Promise<void> {}

  /**
   * Applies a record the reconciler read from a list page, as a read (inside the lane; an
   * older one changes nothing). Objects that follow nothing keep the default.
   */
  protected async applyListed(_listed: ListedRecord): Promise<void> {}

  /** The reconciler hands a listed record that shows something new (`reconciler/`). */
  async admitListed(listed: ListedRecord): Promise<void> {
    if (!this.#hasSchema) return;
    await this.lane.run(() => this.applyListed(listed));
    await this.armAlarm();
  }

  /** The reconciler found this followed object in no open list: one `GET`, as the alarm does. */
  async reconcileRead(target: Followed): Promise<void> {
    if (!this.#hasSchema) return;
    await readOne({
      sql: this.ctx.storage.sql,
      target,
      watched: this.watched(),
      log: this.logger(),
      read: (t) => this.lane.run(() => this.readFollowed(t)),
    });
    await this.armAlarm();
  }

  /**
   * Handles one verified webhook delivery about an upstream object of `kind`: in the lane,
   * answers `known: false` unless `owns()` (the route then tries another object or answers
   * 202); else the delivery's signed record is applied as a read by `admit` (no upstream call),
   * or, when it has none, `refetch` reads the object with the webhook's client (one short
   * attempt: the service retries a 503, and a webhook must be answered fast) and applies it.
   * The delivery is acknowledged only as `core/converge/delivery.ts` rules. The alarm is re-armed
   * after, whatever the answer, so a 503 still brings the next read forward.
   *
   * @example
   * return this.applyWebhook("deposit", delivery, {
   *   owns: () => this.#row()?.depositId === delivery.id,
   *   admit: async (deposit) => this.#apply(deposit),
   *   refetch: async (client) => this.#apply(await client.getDeposit({ id: delivery.id })),
   * });
   */
  protected applyWebhook<R>(
    kind: UpstreamKind,
    delivery: Delivery<R>,
    object: {
      owns: () => boolean;
      /** Applies the delivery's record as a read; may answer itself (a mismatch, a failure). */
      admit: (record: R) => Promise<DeliveryOutcome | undefined>;
      /** Reads and applies; may answer itself (a mismatch, a failure): then not remembered. */
      refetch: (client: UpstreamClient) => Promise<DeliveryOutcome | undefined>;
    },
  ): Promise<DeliveryOutcome> {
    return this.lane.run(async () => {
      if (!object.owns()) return success({ known: false, duplicate: false });
      const outcome = await applyDelivery({
        log: this.log,
        sql: this.ctx.storage.sql,
        kind,
        delivery,
        logger: this.logger(),
        admit: object.admit,
        refetch: () => object.refetch(upstreamFor(this.config(), WEBHOOK_REFETCH)),
      });
      await this.armAlarm();
      return outcome;
    });
  }

  /**
   * The EventStream capability's face on this object (`event-stream.ts`): the first watcher
   * brings every followed read to `WATCHED_READ_MS` at the latest; who watches re-arms.
   *
   * @example
   * readonly events = new EventStream<DepositSnapshot>(this.log, this.streamHost);
   */
  protected readonly streamHost: EventStreamHost = {
    hurryReads: () => hurryReads(this.ctx.storage.sql, Date.now() + WATCHED_READ_MS),
    arm: () => this.armAlarm(),
    logger: () => this.logger(),
  };

  /**
   * Creates this object's business object once. `existing` answers for an object already made
   * (and for every open queued behind the one that makes it); `create` runs in the lane, so
   * concurrent opens never create twice: the first creates, the rest find its result.
   *
   * @example
   * return this.openOnce(() => (this.#row() ? reopened : null), () => this.#create(input));
   */
  protected openOnce<T>(existing: () => T | null, create: () => Promise<T>): Promise<T> {
    const found = existing();
    if (found !== null) return Promise.resolve(found);
    return this.lane.run(async () => existing() ?? create());
  }

  /** The Outbox capability (`outbox-capability.ts`): the merchant notifications owed. */
  readonly outbox = new Outbox(this.ctx.storage.sql);

  /** What the apply sequence needs of this object: storage, its outbox and the one alarm. */
  readonly #applyHost: ApplyHost = {
    storage: this.ctx.storage,
    outbox: this.outbox,
    arm: () => this.armAlarm(),
    wakeNow: () => this.scheduleAlarm(),
  };

  /**
   * Runs one change through the one apply sequence (`apply-sequence.ts`: stale? → write,
   * enqueue, append → publish → arm); answers the appended event, or null.
   *
   * @example
   * await this.applyChange({ stale: false, record: () => admitRead(…), write: () => notes,
   *   append: () => appendSnapshot(this.log, type, message, render) }, (e) => this.#publish(e));
   */
  protected applyChange<E>(change: Change<E>, publish: (event: E) => void): Promise<E | null> {
    return applySequence(this.#applyHost, change, publish);
  }

  /**
   * Makes the alarm fire now, unless it already will sooner. Await it after the transaction
   * that enqueued the notifications committed, so the caller answers only once it is set.
   */
  protected async scheduleAlarm(): Promise<void> {
    const at = await this.ctx.storage.getAlarm();
    const now = Date.now();
    if (at === null || at > now) await this.ctx.storage.setAlarm(now);
  }

  /**
   * Sends one of this object's notifications again (`POST /v1/notifications/:id/redeliver`,
   * through the account's index): pending, due now, the alarm woken. Null when this object
   * holds no notification `id`.
   */
  async redeliverNotification(id: string): Promise<NotificationView | null> {
    if (!this.#hasSchema) return null;
    const view = this.outbox.redeliver(id);
    if (view) await this.scheduleAlarm();
    return view;
  }

  /**
   * The Follower capability (`core/events/follower.ts`): the followed objects' registration with
   * the reconciler and their next read.
   */
  readonly #follower: Follower;

  /**
   * When each part of this object next needs to wake (epoch ms, or null for never): the
   * outbox's next retry, the index feed's next report, the Follower's next read. No part owns
   * the alarm; `armAlarm` takes the earliest.
   */
  readonly #wakes: readonly (() => number | null)[] = [
    () => this.outbox.nextWake(),
    () => nextFeedAt(this.ctx.storage.sql),
    () => this.#follower.nextWake(),
  ];

  /** The earliest wake any part reports, or null. */
  #nextAlarm(): number | null {
    const times = this.#wakes.map((wake) => wake()).filter((t) => t !== null);
    return times.length === 0 ? null : Math.min(...times);
  }

  /**
   * Brings the alarm forward to the next due outbox retry or reconciliation read (never
   * postpones it), and registers what changed with the reconciler. Await it after the write
   * that changed either schedule.
   */
  protected async armAlarm(): Promise<void> {
    if (!this.#hasSchema) return;
    await this.#follower
      .register()
      .catch((error: unknown) =>
        this.#warnSafely("reconciler.register_failed", { error: String(error) }),
      );
    const at = await this.ctx.storage.getAlarm();
    // Already due (queued notifications woke it, as after most webhooks): nothing is earlier.
    if (at !== null && at <= Date.now()) return;
    const next = this.#nextAlarm();
    if (next !== null && (at === null || at > next)) await this.ctx.storage.setAlarm(next);
  }

  /**
   * Logs a warning on a failure path that must not throw: when the configuration cannot be
   * read (the logger is built from it, and so is what failed), only the event is printed: no
   * fields, since nothing could redact the secrets they might hold.
   */
  #warnSafely(event: string, fields: LogFields): void {
    let log: Logger;
    try {
      log = this.logger();
    } catch {
      console.log(JSON.stringify({ level: "warn", event, at: new Date().toISOString() }));
      return;
    }
    log.warn(event, fields);
  }

  /** Tail of the alarm runs: a forced run (tests, retries) never overlaps a scheduled one. */
  #alarmTail: Promise<void> = Promise.resolve();

  /** Delivers due notifications, reconciles due upstream objects, then re-arms itself. */
  override alarm(): Promise<void> {
    const run = this.#alarmTail.then(() => this.#runAlarm());
    this.#alarmTail = run.catch(() => {});
    return run;
  }

  async #runAlarm(): Promise<void> {
    if (!this.#hasSchema) return;
    const config = this.config();
    const log = this.logger();
    // The outbox first: its due rows are selected before the first await.
    await this.outbox.deliver({
      url: config.MERCHANT_WEBHOOK_URL ?? null,
      secret: notificationSecret(config),
      log,
    });
    await reconcileDue({
      sql: this.ctx.storage.sql,
      now: Date.now(),
      watched: this.watched(),
      log,
      read: (target) => this.lane.run(() => this.readFollowed(target)),
    });
    // Last: what the outbox and the reads changed reaches the account's index in this run.
    const source = notificationSource(this.#schema.notifier, this.ctx.id.toString());
    const index = accountStub(this.env, accountKey(config));
    await deliverFeed(
      this.ctx.storage.sql,
      (entries) => index.applyFeed(source, entries),
      Date.now(),
    );
    // Notifications a read enqueued are due now: the next alarm delivers them at once.
    const next = this.#nextAlarm();
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
