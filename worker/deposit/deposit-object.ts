/**
 * @module
 * `DepositObject`: the Durable Object that owns one top-up (one standalone deposit address of
 * the service for one merchant top-up id), named by `checkoutIdFor("deposit", topUpId)`.
 *
 * Same shape as `OrderObject`: every request about the top-up is serialised here, so
 * concurrent opens share one upstream `POST /deposit` (orderId `<prefix>-<topUpId>`), a webhook
 * is applied once, and SSE subscribers hear each change from the one place that makes it.
 * A webhook is only a prompt: the deposit is re-read from the service before anything changes.
 */
import { DurableObject } from "cloudflare:workers";
import type { DepositSnapshot } from "../api/contract.ts";
import { type Config, parseConfig } from "../config/config.ts";
import type { Env } from "../config/env.ts";
import { upstreamFor } from "../config/upstream.ts";
import { EventLog } from "../events/event-log.ts";
import { deliverOutbox, enqueue } from "../events/outbox-store.ts";
import { createLogger } from "../http/log.ts";
import { failure, type Outcome, success } from "../order/outcome.ts";
import { SseHub, sseFrame } from "../order/sse.ts";
import { upstreamFailure } from "../order/upstream-failure.ts";
import type { Deposit } from "../upstream/client.ts";
import { depositNotifications } from "./notifications.ts";
import { settlementAgrees, settlementView } from "./settlement.ts";
import { buildDepositSnapshot } from "./snapshot.ts";
import { acceptsDepositStatus } from "./status.ts";
import {
  DEPOSIT_SCHEMA,
  type DepositCurrency,
  type DepositRow,
  readDeposit,
  writeDeposit,
} from "./store.ts";

/** What the route passes when a widget opens a top-up. */
export interface OpenDeposit {
  checkoutId: string;
  topUpId: string;
  customerId: string | null;
  currency: DepositCurrency;
}

type Published = { frame: string; snapshot: DepositSnapshot };

export class DepositObject extends DurableObject<Env> {
  readonly log: EventLog;
  readonly hub = new SseHub();
  /** False until the first open: reads of unknown ids must not create storage. */
  #hasSchema = false;
  /** In-flight upstream creation, shared by concurrent callers (one deposit per top-up). */
  #creating: Promise<Outcome<DepositSnapshot>> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.log = new EventLog(ctx.storage.sql);
    ctx.blockConcurrencyWhile(async () => {
      const { n } = ctx.storage.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'deposit_info'",
        )
        .one();
      if (n > 0) this.#ensureSchema();
    });
  }

  #ensureSchema(): void {
    this.ctx.storage.sql.exec(DEPOSIT_SCHEMA);
    this.#hasSchema = true;
  }

  #row(): DepositRow | null {
    return this.#hasSchema ? readDeposit(this.ctx.storage.sql) : null;
  }

  #config(): Config {
    const result = parseConfig(this.env);
    if (!result.ok) throw new Error(`configuration invalid: ${result.problems.join("; ")}`);
    return result.config;
  }

  #logger() {
    const c = this.#config();
    return createLogger({
      enabled: c.DEBUG_LOG,
      secrets: [c.API_KEY, c.WEBHOOK_SIGNING_KEY, c.CHECKOUT_SIGNING_SECRET, c.MERCHANT_API_TOKEN],
    });
  }

  #snapshotAt(row: DepositRow, seq: number): DepositSnapshot {
    const config = this.#config();
    return buildDepositSnapshot(row, {
      displayName: config.DISPLAY_NAME,
      sandbox: config.SANDBOX,
      seq,
      now: new Date().toISOString(),
    });
  }

  /** Appends an event with the snapshot it produced (inside the caller's transaction). */
  #append(row: DepositRow, type: string, message: string): Published {
    let json = "";
    const seq = this.log.append(
      type,
      message,
      (s) => {
        json = JSON.stringify(this.#snapshotAt(row, s));
        return json;
      },
      new Date().toISOString(),
    );
    return { frame: sseFrame(seq, json), snapshot: JSON.parse(json) as DepositSnapshot };
  }

  /** Pushes a committed event to every subscriber. */
  #publish(event: Published, type: string): DepositSnapshot {
    this.hub.broadcast(event.frame, event.snapshot.final);
    const { topUpId, seq, status } = event.snapshot;
    this.#logger().debug(type, { topUpId, seq, status });
    return event.snapshot;
  }

  /** Opens the top-up: creates the upstream deposit once, or returns the existing one. */
  async open(
    input: OpenDeposit,
  ): Promise<Outcome<{ created: boolean; snapshot: DepositSnapshot }>> {
    if (!this.#hasSchema) this.#ensureSchema();
    const existing = this.#row();
    if (existing) {
      if (existing.currency.code !== input.currency.code) {
        return failure(
          409,
          "checkout_conflict",
          `Top-up ${input.topUpId} already has a ${existing.currency.code} deposit address; it cannot reuse it for ${input.currency.code}.`,
        );
      }
      return success({ created: false, snapshot: this.#snapshotAt(existing, this.log.lastSeq()) });
    }
    // Only the caller that starts the creation reports `created`; joiners see an existing top-up.
    const starter = this.#creating === null;
    this.#creating ??= this.#create(input).finally(() => {
      this.#creating = null;
    });
    const outcome = await this.#creating;
    if (!outcome.ok) return outcome;
    if (outcome.value.cryptoCurrencyCode !== input.currency.code) {
      return failure(
        409,
        "checkout_conflict",
        `Top-up ${input.topUpId} already has a ${outcome.value.cryptoCurrencyCode} deposit address; it cannot reuse it for ${input.currency.code}.`,
      );
    }
    return success({ created: starter, snapshot: outcome.value });
  }

  async #create(input: OpenDeposit): Promise<Outcome<DepositSnapshot>> {
    const config = this.#config();
    const orderId = `${config.ORDER_ID_PREFIX}-${input.topUpId}`;
    let deposit: Deposit;
    try {
      deposit = await upstreamFor(config).createDeposit({
        orderId,
        cryptoCurrencyCode: input.currency.code,
        webhookUrl: `${config.PUBLIC_BASE_URL}/webhooks/payment`,
        ...(input.customerId ? { customerId: input.customerId } : {}),
      });
    } catch (error) {
      return upstreamFailure(error, this.#logger());
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
    const event = this.ctx.storage.transactionSync(() => {
      writeDeposit(this.ctx.storage.sql, row);
      return this.#append(row, "deposit.created", `deposit ${deposit.id} opened as ${orderId}`);
    });
    return success(this.#publish(event, "deposit.created"));
  }

  /** The current snapshot, or 404 for an unknown top-up. */
  async view(): Promise<Outcome<DepositSnapshot>> {
    const row = this.#row();
    if (!row) return failure(404, "not_found", "No such top-up.");
    return success(this.#snapshotAt(row, this.log.lastSeq()));
  }

  /**
   * Handles a verified `deposit.statusChanged`: re-reads the deposit from the service and
   * applies it. `deliveryKey` dedupes identical deliveries.
   */
  async applyDepositWebhook(
    depositId: string,
    deliveryKey: string,
  ): Promise<Outcome<{ known: boolean; duplicate: boolean }>> {
    const row = this.#row();
    if (!row || row.depositId !== depositId) return success({ known: false, duplicate: false });
    if (this.log.hasDelivery(deliveryKey)) return success({ known: true, duplicate: true });
    let deposit: Deposit;
    try {
      deposit = await upstreamFor(this.#config()).getDeposit({ id: depositId });
    } catch (error) {
      const failed = upstreamFailure(error, this.#logger());
      return failure(503, "service_busy", failed.ok ? "upstream unavailable" : failed.message);
    }
    this.#applyFacts(deposit);
    this.log.rememberDelivery(deliveryKey, new Date().toISOString());
    return success({ known: true, duplicate: false });
  }

  /** Applies an authoritative deposit under the monotonic status rules. */
  #applyFacts(deposit: Deposit): void {
    // Re-read: another call may have changed the row while the fetch was in flight.
    const row = this.#row()!;
    const incoming = deposit.status ?? row.status;
    const statusMoves = acceptsDepositStatus(row.status, incoming);
    const newSettlement = deposit.settlement !== null && row.settlement === null;
    if (!statusMoves && !newSettlement) {
      this.#logger().debug("deposit.unchanged", {
        topUpId: row.topUpId,
        status: row.status,
        incoming,
      });
      return;
    }
    const now = new Date().toISOString();
    const next: DepositRow = {
      ...row,
      status: statusMoves ? incoming : row.status,
      settlement: deposit.settlement ?? row.settlement,
      minimumAmount: deposit.minimumAmount ?? row.minimumAmount,
      expiresAt: deposit.expiresAt ?? row.expiresAt,
      updatedAt: now,
    };
    if (next.settlement && !settlementAgrees(settlementView(next.settlement), next.currency)) {
      // The service is authoritative; a disagreement with the published rule is worth a look.
      this.#logger().warn("deposit.settlement_unexpected", { topUpId: row.topUpId });
    }
    const notes = depositNotifications(next, row.status, now);
    const event = this.ctx.storage.transactionSync(() => {
      writeDeposit(this.ctx.storage.sql, next);
      for (const note of notes) enqueue(this.ctx.storage.sql, note, Date.now());
      return this.#append(next, "deposit.status", `webhook: ${row.orderId} is ${incoming}`);
    });
    if (notes.length > 0) this.#scheduleAlarm();
    this.#publish(event, "deposit.status");
  }

  #scheduleAlarm(): void {
    void this.ctx.storage.getAlarm().then((at) => {
      if (at === null || at > Date.now()) return this.ctx.storage.setAlarm(Date.now());
    });
  }

  /** Delivers due merchant notifications; reschedules itself for the next one. */
  override async alarm(): Promise<void> {
    if (!this.#hasSchema) return;
    const config = this.#config();
    const next = await deliverOutbox(this.ctx.storage.sql, {
      url: config.MERCHANT_WEBHOOK_URL ?? null,
      secret: config.MERCHANT_API_TOKEN,
      now: Date.now(),
    });
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /** `GET …/events`: the SSE stream, resuming after `Last-Event-ID`. */
  override async fetch(request: Request): Promise<Response> {
    const row = this.#row();
    if (!row) {
      return Response.json(
        { error: { code: "not_found", message: "No such top-up." } },
        { status: 404 },
      );
    }
    const url = new URL(request.url);
    const header = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId");
    const lastId = header !== null && /^\d{1,12}$/.test(header) ? Number(header) : null;
    const lastSeq = this.log.lastSeq();
    const current = this.#snapshotAt(row, lastSeq);
    // A finished top-up the client has fully seen: 204 makes EventSource stop for good.
    if (current.final && lastId !== null && lastId >= lastSeq) {
      return new Response(null, { status: 204 });
    }
    const frames =
      lastId === null || lastId > lastSeq
        ? [sseFrame(lastSeq, JSON.stringify(current))]
        : this.log.after(lastId).map((e) => sseFrame(e.seq, e.snapshot));
    return this.hub.open(frames, { close: current.final });
  }
}
