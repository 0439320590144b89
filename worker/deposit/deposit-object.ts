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
import type { DepositSnapshot } from "../api/contract.ts";
import type { Env } from "../config/env.ts";
import { upstreamFor, WEBHOOK_REFETCH } from "../config/upstream.ts";
import { type Appended, appendSnapshot, eventStream } from "../events/live-events.ts";
import { enqueue } from "../events/outbox-store.ts";
import { SseHub } from "../events/sse.ts";
import { StoredObject } from "../events/stored-object.ts";
import { failure, type Outcome, success } from "../order/outcome.ts";
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

export class DepositObject extends StoredObject {
  readonly hub = new SseHub();
  /** In-flight upstream creation, shared by concurrent callers (one deposit per top-up). */
  #creating: Promise<Outcome<DepositSnapshot>> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, { ddl: DEPOSIT_SCHEMA, marker: "deposit_info" });
  }

  #row(): DepositRow | null {
    return this.hasSchema ? readDeposit(this.ctx.storage.sql) : null;
  }

  #snapshotAt(row: DepositRow, seq: number): DepositSnapshot {
    const config = this.config();
    return buildDepositSnapshot(row, {
      displayName: config.DISPLAY_NAME,
      sandbox: config.SANDBOX,
      seq,
      now: new Date().toISOString(),
    });
  }

  /** Appends an event with the snapshot it produced (inside the caller's transaction). */
  #append(row: DepositRow, type: string, message: string): Appended<DepositSnapshot> {
    return appendSnapshot(this.log, type, message, (seq) => this.#snapshotAt(row, seq));
  }

  /** Pushes a committed event to every subscriber. */
  #publish(event: Appended<DepositSnapshot>, type: string): DepositSnapshot {
    this.hub.broadcast(event.frame, event.snapshot.final);
    const { topUpId, seq, status } = event.snapshot;
    this.logger().debug(type, { topUpId, seq, status });
    return event.snapshot;
  }

  /** Opens the top-up: creates the upstream deposit once, or returns the existing one. */
  async open(
    input: OpenDeposit,
  ): Promise<Outcome<{ created: boolean; snapshot: DepositSnapshot }>> {
    if (!this.hasSchema) this.ensureSchema();
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
    const config = this.config();
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
      return upstreamFailure(error, this.logger());
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
      deposit = await upstreamFor(this.config(), WEBHOOK_REFETCH).getDeposit({ id: depositId });
    } catch (error) {
      const failed = upstreamFailure(error, this.logger());
      return failure(503, "service_busy", failed.ok ? "upstream unavailable" : failed.message);
    }
    await this.#applyFacts(deposit);
    this.log.rememberDelivery(deliveryKey, new Date().toISOString());
    return success({ known: true, duplicate: false });
  }

  /**
   * Applies an authoritative deposit under the monotonic status rules; sets the outbox alarm
   * after the write committed (awaited, so the webhook is answered only once it is set).
   */
  async #applyFacts(deposit: Deposit): Promise<void> {
    // Re-read: another call may have changed the row while the fetch was in flight.
    const row = this.#row()!;
    const incoming = deposit.status ?? row.status;
    const statusMoves = acceptsDepositStatus(row.status, incoming);
    const newSettlement = deposit.settlement !== null && row.settlement === null;
    if (!statusMoves && !newSettlement) {
      this.logger().debug("deposit.unchanged", {
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
      this.logger().warn("deposit.settlement_unexpected", { topUpId: row.topUpId });
    }
    const notes = depositNotifications(next, row, now);
    const event = this.ctx.storage.transactionSync(() => {
      writeDeposit(this.ctx.storage.sql, next);
      for (const note of notes) enqueue(this.ctx.storage.sql, note, Date.now());
      return this.#append(next, "deposit.status", `webhook: ${row.orderId} is ${incoming}`);
    });
    // Published before the await, so subscribers hear events in seq order.
    this.#publish(event, "deposit.status");
    if (notes.length > 0) await this.scheduleAlarm();
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
    return eventStream(request, this.log, this.hub, (seq) => this.#snapshotAt(row, seq));
  }
}
