/**
 * @module
 * `ObjectHost`: what every Durable Object of the worker (order, top-up, payout) is built from,
 * by composition: each object holds one host (`readonly host = new ObjectHost(…)`); its class
 * extends `HostedDurableObject` or `WatchedDurableObject` (`hosted-durable-object.ts`), which
 * only forward the RPC methods every hosted object answers alike to the host: no logic lives
 * in a base class. The host holds no logic of its own either: it wires
 * the capabilities (each owns its table(s) and talks to the host through a narrow face,
 * modelled on `cloudflare/agents`' `capabilities/`), dispatches the one alarm to them, and
 * arms that alarm at the earliest wake they report (`wakes.ts`). The object tells the host only
 * what is its own (`HostedObject`: who watches, how a followed record is read and applied).
 *
 * Capabilities: the schema (`object-schema.ts`), the Lane (`lane-capability.ts`: the serial
 * queue of upstream work, opens, webhooks), the Outbox (`outbox-capability.ts`), the Follower
 * (`follower.ts`: followed objects, registration with the reconciler), the index feed
 * (`index-feed.ts`), the EventStream of objects shoppers watch (`event-stream.ts`, made by the
 * object over `streamHost`), and the one apply sequence (`apply-sequence.ts`).
 *
 * Invariants:
 * - an object that never opened creates no storage (`object-schema.ts`), always under
 *   `blockConcurrencyWhile`;
 * - one alarm per object, owned here and by no capability: `arm()` registers what changed
 *   with the reconciler and brings the alarm forward to the earliest wake, never later;
 * - a change that queued notifications delivers them (and the index feed) in the same
 *   invocation, after its answer (`scheduleAlarm`), with the alarm set ahead as the net: one
 *   webhook costs no alarm of its own, and every notification is still delivered at least once
 *   and retried by the alarm;
 * - with the account's reconciler, the reconciler reads in batches and calls back
 *   `admitListed` / `reconcileRead` (the object forwards its RPC methods here); a forced alarm
 *   still reads what is due here itself;
 * - every change runs through the one apply sequence (`applyChange`).
 */
import type { NotificationView } from "../../lib/api/merchant-ops.ts";
import type { LogFields, Logger } from "../../lib/log.ts";
import { accountKey } from "../account/account-key.ts";
import { type Config, notificationSecret, parseConfig } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { configLogger } from "../config/logger.ts";
import { upstreamFor, WEBHOOK_REFETCH } from "../config/upstream.ts";
import { type Followed, hurryReads } from "../converge/followed.ts";
import { readOne, reconcileDue } from "../converge/reconcile.ts";
import { WATCHED_READ_MS } from "../converge/schedule.ts";
import { accountStub, reconcilerStub, streamHubStub } from "../objects/stubs.ts";
import type { ListedRecord } from "../reconciler/reconciler-rpc.ts";
import { type ApplyHost, applyChange as applySequence, type Change } from "./apply-sequence.ts";
import { EventLog } from "./event-log.ts";
import type { EventStreamHost } from "./event-stream.ts";
import { Follower } from "./follower.ts";
import { deliverFeed, feedWakeAt } from "./index-feed.ts";
import { Lane } from "./lane-capability.ts";
import { notificationSource } from "./notifier-rpc.ts";
import { type ObjectSchema, StoredSchema } from "./object-schema.ts";
import { Outbox } from "./outbox-capability.ts";
import { backfillFeed } from "./outbox-store.ts";
import { bringAlarmForward, earliestWake, type Wakes } from "./wakes.ts";

export type { ObjectSchema } from "./object-schema.ts";

/**
 * How far ahead `scheduleAlarm` sets the alarm before it delivers inline: the net that catches
 * an object that died mid-run. Longer than one merchant POST may take (10 s), so a slow merchant
 * does not wake a second run beside the first.
 */
export const INLINE_GRACE_MS = 15_000;

/** What the host asks of its object: only what is the object's own. */
export interface HostedObject {
  /** True while someone watches the object live (a stream hub holds a stream): reads come faster. */
  watched(): boolean;
  /**
   * Reads one followed upstream object from the service and applies it (inside the lane;
   * throws the upstream error when the read fails).
   */
  readFollowed(target: Followed): Promise<void>;
  /** Applies a record the reconciler listed, as a read (inside the lane). */
  applyListed(listed: ListedRecord): Promise<void>;
  /**
   * A capability of the object's own that must wake (the order's x402 follow): it reports its
   * wake like the host's capabilities, and the alarm runs it after the due reads.
   */
  own?: Wakes & { wake(): Promise<void> };
}

/**
 * The capabilities of one Durable Object and its one alarm.
 *
 * @example
 * export class DepositObject extends WatchedDurableObject<CoreEnv> {
 *   readonly host = new ObjectHost(this.ctx, () => this.env, DEPOSIT_OBJECT, {
 *     watched: () => this.events.watched,
 *     readFollowed: (target) => this.#readFollowed(target),
 *     applyListed: (listed) => this.#applyListed(listed),
 *   });
 * } // the alarm and the reconciler's entry points are forwarded to the host by the base
 */
export class ObjectHost<E extends CoreEnv = CoreEnv> {
  readonly ctx: DurableObjectState;
  readonly #env: () => E;
  readonly log: EventLog;
  readonly #object: HostedObject;
  readonly #schema: StoredSchema;
  /** The Lane capability: everything that reads or writes upstream state runs here, in turn. */
  readonly lane: Lane;
  /** The Outbox capability: the merchant notifications owed. */
  readonly outbox: Outbox;
  /** The Follower capability: followed objects' registration with the reconciler, next read. */
  readonly #follower: Follower;
  /** Every capability's wake; `arm()` takes the earliest. */
  readonly #wakes: readonly Wakes[];

  /**
   * `env` answers the object's bindings when asked (read at each use, as the object's own
   * `this.env` is: a test may swap them).
   */
  constructor(ctx: DurableObjectState, env: () => E, schema: ObjectSchema, object: HostedObject) {
    this.ctx = ctx;
    this.#env = env;
    this.#object = object;
    const sql = ctx.storage.sql;
    this.#schema = new StoredSchema(sql, schema);
    this.log = new EventLog(sql);
    const arm = () => this.arm();
    const logger = () => this.logger();
    this.lane = new Lane({
      sql,
      log: this.log,
      logger,
      webhookClient: () => upstreamFor(this.config(), WEBHOOK_REFETCH),
      arm,
    });
    this.outbox = new Outbox(sql);
    this.#follower = new Follower({
      sql,
      namespace: schema.namespace,
      owner: ctx.id.toString(),
      watched: () => this.#object.watched(),
      reconciled: () => Boolean(this.env.RECONCILERS),
      reconciler: () => reconcilerStub(this.env, accountKey(this.config())),
    });
    const indexFeed: Wakes = { nextWake: () => feedWakeAt(sql) };
    this.#wakes = [
      this.outbox,
      indexFeed,
      this.#follower,
      this.lane,
      ...(object.own ? [object.own] : []),
    ];
    this.#applyHost = {
      storage: ctx.storage,
      outbox: this.outbox,
      arm,
      wakeNow: () => this.scheduleAlarm(),
    };
    this.streamHost = {
      hurryReads: () => hurryReads(sql, Date.now() + WATCHED_READ_MS),
      arm,
      logger,
      kv: ctx.storage.kv,
      publishTo: (hub, key, frames) => streamHubStub(this.env, hub).publish(key, frames),
      waitUntil: (promise) => ctx.waitUntil(promise),
    };
    ctx.blockConcurrencyWhile(async () => {
      if (!this.#schema.stored()) return;
      this.#schema.ensure();
      // An object made before the account index: its notifications join the log now.
      if (backfillFeed(sql, Date.now()) > 0) await this.arm();
    });
  }

  /** The object's bindings. */
  get env(): E {
    return this.#env();
  }

  /** True while someone watches the object live: what reconciliation and the Follower read. */
  watched(): boolean {
    return this.#object.watched();
  }

  /** True once this object holds a business object. */
  get hasSchema(): boolean {
    return this.#schema.made;
  }

  /** Creates the tables and runs the migrations not applied yet (`object-schema.ts`). */
  ensureSchema(): void {
    this.#schema.ensure();
  }

  config(): Config {
    const result = parseConfig(this.env);
    if (!result.ok) throw new Error(`configuration invalid: ${result.problems.join("; ")}`);
    return result.config;
  }

  logger(): Logger {
    return configLogger(this.config());
  }

  /** The reconciler hands a listed record that shows something new (`reconciler/`). */
  async admitListed(listed: ListedRecord): Promise<void> {
    if (!this.hasSchema) return;
    await this.lane.run(() => this.#object.applyListed(listed));
    await this.arm();
  }

  /** The reconciler found this followed object in no open list: one `GET`, as the alarm does. */
  async reconcileRead(target: Followed): Promise<void> {
    if (!this.hasSchema) return;
    await readOne({
      sql: this.ctx.storage.sql,
      target,
      watched: this.#object.watched(),
      log: this.logger(),
      read: (t) => this.lane.run(() => this.#object.readFollowed(t)),
    });
    await this.arm();
  }

  /**
   * The EventStream capability's face on this object (`event-stream.ts`): the first watcher
   * brings every followed read to `WATCHED_READ_MS` at the latest; who watches re-arms; events
   * go to the stream hub that holds the watchers.
   *
   * @example
   * readonly events = new EventStream<DepositSnapshot>(this.host.log, this.host.streamHost);
   */
  readonly streamHost: EventStreamHost;

  /** What the apply sequence needs of this object: storage, its outbox and the one alarm. */
  readonly #applyHost: ApplyHost;

  /**
   * Runs one change through the one apply sequence (`apply-sequence.ts`: stale? → write,
   * enqueue, append → publish → arm); answers the appended event, or null.
   *
   * @example
   * await this.host.applyChange({ stale: false, record: () => admitRead(…), write: () => notes,
   *   append: () => appendSnapshot(this.log, type, message, render) }, (e) => this.#publish(e));
   */
  applyChange<C>(change: Change<C>, publish: (event: C) => void): Promise<C | null> {
    return applySequence(this.#applyHost, change, publish);
  }

  /**
   * Delivers what is due now (the notifications a change queued, the index feed with the
   * followed facts it moved) in this very invocation, after the caller's answer, instead of
   * through an alarm of its own: the alarm's run (`#runAlarm`) is started here, in
   * `waitUntil`. What makes it safe: the alarm is first set `INLINE_GRACE_MS` ahead (brought
   * forward only, never postponed), and the caller awaits that, so an object that dies before
   * the run ends still delivers then; the run ends by setting the alarm to the next wake or
   * deleting it, so a run that delivered everything costs no alarm. Await it after the
   * transaction that enqueued the notifications committed, so the caller answers only once the
   * alarm is set.
   */
  async scheduleAlarm(): Promise<void> {
    // The facts this change moved travel with the feed delivery the run makes (the run notes
    // them itself, right before that delivery: `#runAlarm`).
    await bringAlarmForward(this.ctx.storage, Date.now() + INLINE_GRACE_MS);
    const run = this.alarm().catch((error: unknown) =>
      this.#warnSafely("alarm.inline_failed", { error: String(error) }),
    );
    this.ctx.waitUntil(run);
  }

  /**
   * Sends one of this object's notifications again (`POST /v1/notifications/:id/redeliver`,
   * through the account's index): pending, due now, the alarm woken. Null when this object
   * holds no notification `id`.
   */
  async redeliverNotification(id: string): Promise<NotificationView | null> {
    if (!this.hasSchema) return null;
    const view = this.outbox.redeliver(id);
    if (view) await this.scheduleAlarm();
    return view;
  }

  /**
   * The one `arm()`: registers what changed with the reconciler in the background (in order,
   * `follower.ts` `registerSoon`: the answer that caused it does not wait for the reconciler),
   * then brings the alarm forward to the earliest wake any capability reports (never
   * postpones it). Await it after the write that changed a schedule.
   */
  async arm(): Promise<void> {
    if (!this.hasSchema) return;
    // Facts-only changes go to the index feed at once (this arm's wake delivers them), unless
    // an alarm run that has not reached its feed delivery yet is under way: it notes them
    // then, with everything this change moved (one scan of the followed rows, not two).
    if (this.#unnoted === 0) this.#follower.noteFacts();
    const registering = this.#follower.registerSoon((error: unknown) =>
      this.#warnSafely("reconciler.register_failed", { error: String(error) }),
    );
    this.ctx.waitUntil(registering);
    // A run under way ends by setting the alarm to the earliest wake outright, this arm's
    // included; until then its grace alarm stands (`scheduleAlarm`).
    if (this.#runs > 0) return;
    await bringAlarmForward(this.ctx.storage, () => earliestWake(this.#wakes));
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

  /** Alarm runs started and not ended (scheduled or inline): `arm()` leaves the alarm to them. */
  #runs = 0;

  /**
   * Alarm runs started that have not yet noted the followed facts before their feed delivery
   * (`#runAlarm`): while one has not, `arm()` leaves the noting to it. A run that ends early
   * (no schema, a throw) counts as noted when it ends; the registration `arm()` starts notes
   * the facts too (`Follower.register`), so no facts-only change is left unnoted.
   */
  #unnoted = 0;

  /** Delivers due notifications, reconciles due upstream objects, then re-arms itself. */
  alarm(): Promise<void> {
    this.#runs += 1;
    this.#unnoted += 1;
    let noted = false;
    const note = () => {
      if (noted) return;
      noted = true;
      this.#unnoted -= 1;
    };
    const run = this.#alarmTail
      .then(() => this.#runAlarm(note))
      .finally(() => {
        note();
        this.#runs -= 1;
      });
    this.#alarmTail = run.catch(() => {});
    return run;
  }

  /** The alarm's dispatch: outbox, due reads, index feed, then the next wake outright. */
  async #runAlarm(noted: () => void): Promise<void> {
    if (!this.hasSchema) return;
    const config = this.config();
    const log = this.logger();
    const sql = this.ctx.storage.sql;
    // The outbox first: its due rows are selected before the first await.
    await this.outbox.deliver({
      url: config.MERCHANT_WEBHOOK_URL ?? null,
      secret: notificationSecret(config),
      log,
    });
    await reconcileDue({
      sql,
      now: Date.now(),
      watched: this.#object.watched(),
      log,
      read: (target) => this.lane.run(() => this.#object.readFollowed(target)),
    });
    await this.#object.own?.wake();
    // Last: what the outbox and the reads changed reaches the account's index in this run,
    // with the facts-only changes of the followed objects (noted here, synchronously before
    // the delivery's select, for this run and every `arm()` that left them to it).
    this.#follower.noteFacts();
    noted();
    const source = notificationSource(this.#schema.kind.notifier, this.ctx.id.toString());
    const index = accountStub(this.env, accountKey(config));
    await deliverFeed(sql, (entries) => index.applyFeed(source, entries), Date.now());
    // Notifications a read enqueued are due now: the next alarm delivers them at once. Nothing
    // to wake for: the alarm is deleted (an inline run's grace alarm would only wake to idle).
    const next = earliestWake(this.#wakes);
    if (next !== null) await this.ctx.storage.setAlarm(next);
    else await this.ctx.storage.deleteAlarm();
  }
}
