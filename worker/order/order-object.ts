/**
 * @module
 * `OrderObject`: the Durable Object that owns one merchant order (one invoice number). A thin
 * shell: it wires the order's parts (store, settings, journal, the capabilities of its
 * `ObjectHost`) into one narrow face (`OrderHost`) and delegates each RPC method to a step
 * of its own module: opening (`open-order.ts`), locks (`lock-currency.ts`), retries
 * (`next-attempt.ts`), reads (`apply-read.ts` over the pure `apply-invoice.ts`), refunds
 * (`refund-steps.ts`), the ledger (`ledger-view.ts`).
 *
 * Why one object per order: every request about the order (widget, webhooks, merchant API)
 * reaches this one place, so SSE subscribers hear every change from where it is made.
 *
 * Invariants (the shared core is `worker/core/converge/`):
 * - everything that reads or writes upstream state runs in the object's one lane: opens,
 *   currency locks, retries, webhooks, reconciliation reads and the refund bookkeeping. So a
 *   retry works out what is due after every payment in flight was applied, two locks never
 *   race, and a slow read never lands after a newer one; the steps never enter the lane
 *   themselves, the methods here enter it once;
 * - every invoice read (create, lock, a webhook's signed invoice, reconciliation) is admitted
 *   against the invoice's known facts: an older read changes nothing;
 * - the alarm reads every invoice that is not paid until its expiry + 24 h, faster while a
 *   shopper watches, so a lost webhook still converges.
 */

import type { CheckoutSnapshot, CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import type { CoreEnv } from "../core/config/core-env.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import type { Followed } from "../core/converge/followed.ts";
import { EventStream } from "../core/events/event-stream.ts";
import { WatchedDurableObject } from "../core/events/hosted-durable-object.ts";
import { feedHas } from "../core/events/index-feed.ts";
import { type HostedObject, ObjectHost, type ObjectSchema } from "../core/events/object-host.ts";
import type { ListedRecord } from "../core/reconciler/reconciler-rpc.ts";
import type { StreamOpening } from "../core/streams/stream-hub-rpc.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { Invoice } from "../service/client.ts";
import type { X402Settlement } from "../service/facilitator.ts";
import {
  applyListedInvoice,
  catalogueEntry,
  readFollowedInvoice,
  webhookApply,
} from "./apply-read.ts";
import { type OrderLedger, readLedger } from "./ledger-view.ts";
import { lockCurrency } from "./lock-currency.ts";
import { nextAttempt, nextAttemptRefusal } from "./next-attempt.ts";
import { createFirst, openConflict, prefetchCreate } from "./open-order.ts";
import { type OrderHost, whileOpening } from "./order-host.ts";
import { ORDER_FEED_KEY, OrderJournal } from "./order-journal.ts";
import type { OpenCheckout, OrderRpc } from "./order-rpc.ts";
import { OrderSettings } from "./order-settings.ts";
import { abandonRefund, beginRefund, recordRefund, saveRefundAddress } from "./refund-steps.ts";
import type { RefundStart } from "./refunds/hold.ts";
import type { RefundRecord } from "./refunds/records.ts";
import { ORDER_MIGRATIONS, ORDER_SCHEMA } from "./schema.ts";
import { OrderStore } from "./store.ts";
import { cancelOpenInvoice } from "./x402/cancel-invoice.ts";
import { applySettlement, matches, x402Follow } from "./x402/follow-x402.ts";
import { payX402, type X402Answer, type X402Request } from "./x402/pay-x402.ts";
import { x402Payments } from "./x402/payments-table.ts";

const NO_CHECKOUT = "No such checkout.";

/** The order's schema: its tables and migrations, the marker that says it exists, its name. */
const ORDER_OBJECT: ObjectSchema = {
  ddl: ORDER_SCHEMA,
  migrations: ORDER_MIGRATIONS,
  marker: "order_info",
  notifier: "order",
  namespace: "ORDERS",
};

export class OrderObject extends WatchedDurableObject<CoreEnv> implements OrderRpc {
  /** The capabilities and the one alarm (`core/events/object-host.ts`). */
  readonly host: ObjectHost<CoreEnv> = new ObjectHost(this.ctx, () => this.env, ORDER_OBJECT, {
    watched: (): boolean => this.events.watched,
    readFollowed: (target) => this.#readFollowed(target),
    applyListed: (listed) => this.#applyListed(listed),
    own: {
      nextWake: () => x402Follow.nextWake(this.#order),
      wake: async () => {
        // Only a run that read a payment can have paid the order by wallet.
        if ((await x402Follow.wake(this.#order)) > 0) await this.#afterX402(Promise.resolve());
      },
    },
  } satisfies HostedObject);
  readonly store: OrderStore;
  /** Watchers; when the last leaves, the reconciler hears the order is no longer watched. */
  readonly events = new EventStream<CheckoutSnapshot>(this.host.log, this.host.streamHost);
  readonly settings: OrderSettings;
  readonly journal: OrderJournal;
  /** The face every step of the order sees (`order-host.ts`). */
  readonly #order: OrderHost;

  constructor(ctx: DurableObjectState, env: CoreEnv) {
    super(ctx, env);
    this.store = new OrderStore(ctx.storage.sql);
    this.settings = new OrderSettings(ctx.storage.kv);
    const config = () => this.host.config();
    const { store, settings, events } = this;
    const { host } = this;
    const { log } = host;
    this.journal = new OrderJournal({ store, settings, log, events, config });
    this.#order = {
      // Read when used: the host's bindings are the object's (tests swap them).
      get env() {
        return host.env;
      },
      store,
      settings,
      journal: this.journal,
      outbox: this.host.outbox,
      kv: ctx.storage.kv,
      opening: { active: false },
      config,
      logger: () => this.host.logger(),
      watched: (): boolean => this.events.watched,
      hasSchema: () => this.host.hasSchema,
      ensureSchema: () => this.host.ensureSchema(),
      transaction: (write) => ctx.storage.transactionSync(write),
      applyChange: (change, publish) => this.host.applyChange(change, publish),
      arm: () => this.host.arm(),
    };
    // An order made before the account index existed joins it when its object next starts.
    ctx.blockConcurrencyWhile(async () => {
      if (!this.host.hasSchema) return;
      // A claim this object left `settling` when it stopped lost its settle call: its outcome
      // is unknown, and the x402 follow reads it from the service (`x402/follow-x402.ts`).
      if (x402Payments.orphansFollowed(this.store.sql, Date.now()) > 0) {
        await this.host.arm().catch(() => {});
      }
      if (feedHas(this.store.sql, ORDER_FEED_KEY)) return;
      try {
        this.journal.syncIndex();
        await this.host.arm();
      } catch (error) {
        // Invalid configuration: the next change of the order writes the summary.
        const name = error instanceof Error ? error.name : "error";
        console.log(JSON.stringify({ level: "warn", event: "index.backfill_failed", name }));
      }
    });
  }

  /** True once a checkout was opened (its first attempt exists). */
  #opened(): boolean {
    return this.host.hasSchema && this.store.currentAttempt() !== null;
  }

  /**
   * Opens the checkout: creates the first upstream invoice once (in the lane), or returns the
   * existing one; 409 when the token claims other terms (`open-order.ts`). A reopen writes
   * nothing, so its answer waits for no commit.
   */
  async open(
    input: OpenCheckout,
  ): Promise<Outcome<{ created: boolean; snapshot: CheckoutSnapshot }>> {
    if (!this.#opened()) prefetchCreate(this.#order, input.client);
    this.settings.refreshFiatMinimum(input.minInvoiceAmount);
    const existing = this.host.hasSchema ? this.store.order() : null;
    const conflict = openConflict(existing ?? this.settings.pendingClaims(), input);
    if (conflict) return conflict;
    return this.host.lane.openOnce(
      () => (this.#opened() ? success({ created: false, snapshot: this.journal.current() }) : null),
      async () => {
        const outcome = await whileOpening(this.#order, () => createFirst(this.#order, input));
        return outcome.ok ? success({ created: !existing, snapshot: outcome.value }) : outcome;
      },
    );
  }

  /** The current snapshot, or 404 when the order does not exist. */
  async view(): Promise<Outcome<CheckoutSnapshot>> {
    if (!this.#opened()) return failure(404, "not_found", NO_CHECKOUT);
    return success(this.journal.current());
  }

  /**
   * Locks a crypto currency on the current attempt (in-page mode), in the lane
   * (`lock-currency.ts`), on behalf of `client` (its budget share).
   */
  lockCurrency(currency: CryptoCurrency, client?: string): Promise<Outcome<CheckoutSnapshot>> {
    return this.host.lane.run(() => lockCurrency(this.#order, currency, client));
  }

  /**
   * Starts the next attempt (`-2`, `-3`, …) after the current one ended unpaid: refused at once
   * when it may not, else in the lane, where it is checked again (`next-attempt.ts`).
   */
  async retry(client?: string): Promise<Outcome<CheckoutSnapshot>> {
    const attempt = this.#opened() ? this.store.currentAttempt() : null;
    const order = attempt ? this.store.order() : null;
    if (!order || !attempt) return failure(404, "not_found", NO_CHECKOUT);
    const refused = nextAttemptRefusal(this.#order);
    if (refused) return refused;
    const next = () => nextAttempt(this.#order, order, attempt.number, client);
    return this.host.lane.run(() => whileOpening(this.#order, next));
  }

  /** Stores the shopper's refund address (`refund-steps.ts`). */
  setRefundAddress(
    cryptoCurrencyCode: string,
    address: string,
  ): Promise<Outcome<CheckoutSnapshot>> {
    return saveRefundAddress(this.#order, cryptoCurrencyCode, address);
  }

  /**
   * Handles a verified `invoice.statusChanged`: its signed invoice is applied as a quiet read
   * (refetched only when the delivery carries none); 2xx only as `Lane.webhook` rules. The
   * currency is named from the catalogue before the lane (no catalogue call holds it).
   */
  async applyInvoiceWebhook(delivery: Delivery<Invoice>): Promise<DeliveryOutcome> {
    const hint = delivery.record ? await catalogueEntry(this.#order, delivery.record) : null;
    const apply = webhookApply(this.#order, hint);
    return this.host.lane.webhook("invoice", delivery, {
      owns: () => this.host.hasSchema && this.store.hasInvoice(delivery.id),
      admit: apply,
      refetch: async (client) => apply(await client.getInvoice({ id: delivery.id })),
    });
  }

  /** Reads a followed invoice and applies it (alarm, inside the lane). */
  #readFollowed(target: Followed): Promise<void> {
    return readFollowedInvoice(this.#order, target);
  }

  /** A listed invoice from the reconciler, applied as a read (inside the lane). */
  #applyListed(listed: ListedRecord): Promise<void> {
    return applyListedInvoice(this.#order, listed);
  }

  /** Records a committed refund or a later status of its withdrawal (idempotent), in the lane. */
  recordRefund(refund: RefundRecord): Promise<Outcome<{ changed: boolean }>> {
    return this.host.lane.run(() => recordRefund(this.#order, refund));
  }

  /** Begins a refund: the live one, or the hold taken in one step, in the lane. */
  beginRefund(): Promise<Outcome<RefundStart>> {
    return this.host.lane.run(async () => beginRefund(this.#order));
  }

  /** Ends a refund that never reached the service (its hold released), in the lane. */
  abandonRefund(orderId: string): Promise<Outcome<{ released: boolean }>> {
    return this.host.lane.run(() => abandonRefund(this.#order, orderId));
  }

  /** The merchant's ledger view. */
  async ledger(): Promise<Outcome<OrderLedger>> {
    const order = this.host.hasSchema ? this.store.order() : null;
    if (!order) return failure(404, "not_found", "No such order.");
    return success(readLedger(this.store, this.host.log, order, this.journal.terms()));
  }

  /**
   * Pays the order from the shopper's wallet (x402, `x402/pay-x402.ts`): the terms, or one
   * verify + settle through the facilitator. Outside the lane: a settle never waits behind
   * reconciliation (the payment's own claim keeps it one at a time).
   */
  async payX402(request: X402Request): Promise<X402Answer> {
    if (!this.#opened())
      return { kind: "error", status: 404, code: "not_found", message: NO_CHECKOUT };
    return this.#afterX402(payX402(this.#order, request));
  }

  /**
   * A verified `x402.payment.*` webhook: the settlement applied to the payment whose
   * transaction it names. `known` is false when no payment of this order has that transaction.
   */
  async applyX402Settlement(settlement: X402Settlement): Promise<{ known: boolean }> {
    const row = this.#opened()
      ? x402Payments.byTransaction(this.store.sql, settlement.transaction)
      : null;
    if (!row || !matches(row, settlement)) return { known: false };
    await this.#afterX402(applySettlement(this.#order, row.nonce, settlement));
    return { known: true };
  }

  /** After an x402 step: a wallet payment that paid the order cancels its open invoice. */
  async #afterX402<T>(step: Promise<T>): Promise<T> {
    const result = await step;
    if (this.journal.orderState() === "paid") {
      await this.host.lane.run(() => cancelOpenInvoice(this.#order));
    }
    return result;
  }

  /** A stream hub opens a stream of this checkout (`WatchedRpc`, `core/events/event-stream.ts`). */
  streamOpen(hub: string, key: string, lastId: number | null): Promise<StreamOpening> {
    const render = this.#opened() ? (seq: number) => this.journal.snapshotAt(seq) : null;
    return this.events.open(hub, key, lastId, render, NO_CHECKOUT);
  }
}
