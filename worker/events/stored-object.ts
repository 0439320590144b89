/**
 * @module
 * What every Durable Object of the worker shares (order, top-up, payout): its SQLite schema made
 * on first use, the event log, the configuration and logger, and the alarm that delivers the
 * merchant-notification outbox.
 *
 * Invariant: an object that never opened (a read of an unknown id) creates no storage: the
 * schema is made by `ensureSchema()` in the call that creates the business object, and on later
 * constructions only if the marker table exists (re-running the idempotent DDL then also adds
 * tables of newer versions).
 */
import { DurableObject } from "cloudflare:workers";
import { type Config, parseConfig } from "../config/config.ts";
import type { Env } from "../config/env.ts";
import { createLogger, type Logger } from "../http/log.ts";
import { EventLog } from "./event-log.ts";
import { deliverOutbox } from "./outbox-store.ts";

/** The schema of a subclass: its DDL and the table whose presence means "this object exists". */
export interface ObjectSchema {
  ddl: string;
  marker: string;
}

export abstract class StoredObject extends DurableObject<Env> {
  readonly log: EventLog;
  readonly #schema: ObjectSchema;
  #hasSchema = false;

  constructor(ctx: DurableObjectState, env: Env, schema: ObjectSchema) {
    super(ctx, env);
    this.#schema = schema;
    this.log = new EventLog(ctx.storage.sql);
    ctx.blockConcurrencyWhile(async () => {
      const { n } = ctx.storage.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
          schema.marker,
        )
        .one();
      if (n > 0) this.ensureSchema();
    });
  }

  /** True once this object holds a business object. */
  protected get hasSchema(): boolean {
    return this.#hasSchema;
  }

  /** Creates the tables (idempotent). */
  protected ensureSchema(): void {
    this.ctx.storage.sql.exec(this.#schema.ddl);
    this.#hasSchema = true;
  }

  protected config(): Config {
    const result = parseConfig(this.env);
    if (!result.ok) throw new Error(`configuration invalid: ${result.problems.join("; ")}`);
    return result.config;
  }

  protected logger(): Logger {
    const c = this.config();
    return createLogger({
      enabled: c.DEBUG_LOG,
      secrets: [c.API_KEY, c.WEBHOOK_SIGNING_KEY, c.CHECKOUT_SIGNING_SECRET, c.MERCHANT_API_TOKEN],
    });
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

  /** Delivers due merchant notifications; reschedules itself for the next one. */
  override async alarm(): Promise<void> {
    if (!this.#hasSchema) return;
    const config = this.config();
    const next = await deliverOutbox(this.ctx.storage.sql, {
      url: config.MERCHANT_WEBHOOK_URL ?? null,
      secret: config.MERCHANT_API_TOKEN,
      now: Date.now(),
      log: this.logger(),
    });
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
