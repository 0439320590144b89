/**
 * @module
 * `OrderObject`: the Durable Object that owns one merchant order (one invoice number).
 *
 * Why one object per order: every request about the order (widget, webhooks, merchant API)
 * reaches this one place, so SSE subscribers hear every change from where it is made.
 *
 * Invariants (the shared core is `worker/core/converge/`):
 * - everything that reads or writes upstream state runs in the object's one lane: opens,
 *   currency locks, retries, webhooks, reconciliation reads and the refund
 *   bookkeeping. So a retry works out what is due after every payment in flight was applied,
 *   two locks never race, and a slow read never lands after a newer one;
 * - every invoice read (create, lock, a webhook's signed invoice, reconciliation) is admitted
 *   against the invoice's known facts: an older read changes nothing;
 * - the attempt's currency, crypto amount and address are the invoice's (the service's
 *   answer or a later read), never the request's;
 * - the alarm reads every invoice that is not paid until its expiry + 24 h, faster while a
 *   shopper watches, so a lost webhook still converges.
 */

import { cryptoCurrencies } from "../core/catalog/catalog.ts";
import type { Config } from "../core/config/config.ts";
import type { CoreEnv } from "../core/config/core-env.ts";
import type { PaymentMode } from "../core/config/mode-decision.ts";
import { switchToHosted } from "../core/config/payment-mode.ts";
import { upstreamFor } from "../core/config/upstream.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import { afterLock, paymentTerms } from "../core/converge/facts.ts";
import {
  admitRead,
  type Followed,
  type FollowPlan,
  forgetFollowed,
  hurryReads,
  knownFacts,
} from "../core/converge/followed.ts";
import { RECONCILE_READ } from "../core/converge/reconcile.ts";
import { CATCH_UP_MS } from "../core/converge/schedule.ts";
import type { Change } from "../core/events/apply-sequence.ts";
import { EventStream } from "../core/events/event-stream.ts";
import { feedHas, feedPut } from "../core/events/index-feed.ts";
import type { Appended } from "../core/events/live-events.ts";
import type { Notification } from "../core/events/outbox.ts";
import { StoredObject } from "../core/events/stored-object.ts";
import { takeSlot } from "../core/events/throttle.ts";
import type { ListedRecord } from "../core/reconciler/reconciler-rpc.ts";
import type { CheckoutSnapshot, CryptoCurrency } from "../lib/api/contract.ts";
import { attemptOrderId } from "../lib/ids/upstream-order-id.ts";
import { cmp } from "../lib/money/decimal.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { Invoice } from "../service/client.ts";
import { CurrencyLockUnsupportedError, lockInvoiceCurrency } from "../service/currency-lock.ts";
import { isUncertainFailure, upstreamFailure } from "../service/upstream-failure.ts";
import { applyInvoiceRead, invoiceFacts, inWords, type Recording } from "./apply-invoice.ts";
import { createAttemptInvoice, type InvoiceOrder, isOrderIdTaken } from "./attempt-invoice.ts";
import { newAttempt } from "./attempts.ts";
import { invoiceFollowPlan } from "./follow-plan.ts";
import { type OrderLedger, readLedger } from "./ledger-view.ts";
import { lockRefusal } from "./lock-refusal.ts";
import { CURRENCY_LOCKS } from "./lock-throttle.ts";
import { owedPaid } from "./notifications.ts";
import type { OpenCheckout, OrderRpc } from "./order-rpc.ts";
import { type Claims, OrderSettings } from "./order-settings.ts";
import { orderSummary } from "./order-summary.ts";
import { refundedRefusal, retryRefusal } from "./payment-refusals.ts";
import { refundFacts } from "./refund-facts.ts";
import { refundAddressChange } from "./refunds/address.ts";
import { type RefundStart, readHold, releaseHold, takeHold } from "./refunds/hold.ts";
import {
  isLive,
  liveRefund,
  type RefundRecord,
  readRefunds,
  writeRefund,
} from "./refunds/records.ts";
import { ORDER_MIGRATIONS, ORDER_SCHEMA } from "./schema.ts";
import { buildSnapshot, orderTotals, type PaymentTerms } from "./snapshot.ts";
import { type AttemptRow, type OrderRow, OrderStore } from "./store.ts";

/** The order's row in its index feed (`core/events/index-feed.ts`). */
const ORDER_FEED_KEY = "order";

/** Attempt orderIds a retry skips at most when the service holds them with other terms. */
const MAX_ORDER_ID_SKIPS = 3;

/** What an invoice apply read and computed inside its transaction, reused by its snapshot. */
interface OrderRead {
  order: OrderRow;
  attempts: AttemptRow[];
  refunds: RefundRecord[];
  terms: PaymentTerms;
  totals: ReturnType<typeof orderTotals>;
  hold: "overpaid" | "partially_paid" | null;
}

export class OrderObject extends StoredObject implements OrderRpc {
  readonly store: OrderStore;
  /** Watchers; when the last leaves, the reconciler hears the order is no longer watched. */
  readonly events = new EventStream<CheckoutSnapshot>(this.log, this.streamHost);
  readonly settings: OrderSettings;
  /** True while the lane creates an attempt's invoice (a refund asked meanwhile is refused). */
  #creating = false;

  constructor(ctx: DurableObjectState, env: CoreEnv) {
    super(ctx, env, {
      ddl: ORDER_SCHEMA,
      migrations: ORDER_MIGRATIONS,
      marker: "order_info",
      notifier: "order",
      namespace: "ORDERS",
    });
    this.store = new OrderStore(ctx.storage.sql);
    this.settings = new OrderSettings(ctx.storage.kv);
    // An order made before the account index existed joins it when its object next starts.
    ctx.blockConcurrencyWhile(async () => {
      if (!this.hasSchema || feedHas(this.store.sql, ORDER_FEED_KEY)) return;
      try {
        this.#syncIndex();
        await this.armAlarm();
      } catch (error) {
        // Invalid configuration: the next change of the order writes the summary.
        const name = error instanceof Error ? error.name : "error";
        console.log(JSON.stringify({ level: "warn", event: "index.backfill_failed", name }));
      }
    });
  }

  /**
   * Writes the order's summary to its index feed (inside the caller's write, so the index
   * learns exactly what committed); unchanged summaries cost no new version.
   */
  #syncIndex(read?: OrderRead): void {
    const order = read?.order ?? this.store.order();
    if (!order) return;
    const summary = orderSummary(this.store, this.log, order, read?.terms ?? this.#terms(), read);
    feedPut(this.store.sql, ORDER_FEED_KEY, "order", JSON.stringify(summary), Date.now());
  }

  /** The current attempt, or null for an object that never opened a checkout. */
  #current(): AttemptRow | null {
    return this.hasSchema ? this.store.currentAttempt() : null;
  }

  /**
   * The order's payment mode: the deployment's when it opened, switched to `hosted` when the
   * service turned out to have no currency lock. An order stored before modes were kept is
   * hosted: the service's page works whatever the service offers.
   */
  #mode(): PaymentMode {
    return this.settings.mode();
  }

  /** The merchant's tolerance (as when the order opened) and the fiat's minimum invoice (`snapshot.ts`). */
  #terms(): PaymentTerms {
    return {
      tolerancePercent: this.settings.tolerance() ?? this.config().PAYMENT_TOLERANCE_PERCENT,
      minInvoiceAmount: this.settings.fiatMinimum(),
    };
  }

  /**
   * The snapshot at `seq`. `read` passes rows, terms and totals the caller read in the same
   * transaction (an invoice apply), so they are not read and computed again.
   */
  #snapshotAt(seq: number, read?: OrderRead): CheckoutSnapshot {
    const config = this.config();
    const order = read?.order ?? this.store.order();
    if (!order) throw new Error("no order");
    return buildSnapshot(
      order,
      read?.attempts ?? this.store.attempts(),
      {
        displayName: config.DISPLAY_NAME,
        sandbox: config.SANDBOX,
        mode: this.#mode(),
        seq,
        now: new Date().toISOString(),
        terms: read?.terms ?? this.#terms(),
        ...(read ? { totals: read.totals } : {}),
        refundHold: read ? read.hold : (readHold(this.store.sql)?.reason ?? null),
      },
      read?.refunds ?? readRefunds(this.store.sql),
    );
  }

  /** 409 `order_refunded` while a refund closed or holds the order (`payment-refusals.ts`). */
  #refundedGuard(): Outcome<never> | null {
    const order = this.store.order();
    if (!order) return null;
    const { sql } = this.store;
    const held = readHold(sql) !== null;
    return refundedRefusal(order, this.store.attempts(), readRefunds(sql), held, this.#terms());
  }

  /**
   * Appends an event with the snapshot it produced (inside the caller's transaction), and the
   * order's summary to its index feed: every change of the order appends an event.
   */
  #append(type: string, message: string, read?: OrderRead): Appended<CheckoutSnapshot> {
    const appended = this.events.append(type, message, (seq) => this.#snapshotAt(seq, read));
    this.#syncIndex(read);
    return appended;
  }

  /** Pushes an appended event to every subscriber; call only after its write committed. */
  #publish(event: Appended<CheckoutSnapshot>, type: string): CheckoutSnapshot {
    const { invoiceNumber, attempt } = event.snapshot;
    return this.events.publish(event, type, { invoiceNumber, status: attempt.status });
  }

  /** Appends and publishes an event outside any other write. */
  #record(type: string, message: string): CheckoutSnapshot {
    return this.#publish(this.#append(type, message), type);
  }

  /** Opens the checkout: creates the first upstream invoice once, or returns the existing one. */
  async open(
    input: OpenCheckout,
  ): Promise<Outcome<{ created: boolean; snapshot: CheckoutSnapshot }>> {
    // A reopen writes nothing, so its answer waits for no commit (the output gate holds an
    // answer until every write before it is durable).
    this.settings.refreshFiatMinimum(input.minInvoiceAmount);
    const existing = this.hasSchema ? this.store.order() : null;
    // Every open compares against the terms already claimed: the order row, or (before it
    // exists) the claims of a create in flight or of one that failed uncertainly.
    const claimed: Claims | undefined = existing ?? this.settings.pendingClaims();
    if (
      claimed &&
      (claimed.currency !== input.currency || cmp(claimed.amount, input.amount) !== 0)
    ) {
      return failure(
        409,
        "checkout_conflict",
        `Order ${input.invoiceNumber} already has a checkout for ${claimed.amount} ${claimed.currency}; a token with another amount or currency cannot reuse it.`,
      );
    }
    return this.openOnce(
      () =>
        this.#current()
          ? success({ created: false, snapshot: this.#snapshotAt(this.log.lastSeq()) })
          : null,
      async () => {
        const outcome = await this.#creatingWhile(() => this.#createFirst(input));
        return outcome.ok ? success({ created: !existing, snapshot: outcome.value }) : outcome;
      },
    );
  }

  async #creatingWhile<T>(create: () => Promise<T>): Promise<T> {
    this.#creating = true;
    try {
      return await create();
    } finally {
      this.#creating = false;
    }
  }

  async #createFirst(input: OpenCheckout): Promise<Outcome<CheckoutSnapshot>> {
    const config = this.config();
    this.settings.setPendingClaims(input);
    this.settings.setMode(input.mode);
    this.settings.setTolerance(config.PAYMENT_TOLERANCE_PERCENT);
    this.settings.setRedirects(input);
    const invoice = await this.#createInvoice(
      config,
      attemptOrderId(config.ORDER_ID_PREFIX, input.invoiceNumber, 1),
      input.amount,
      input,
    );
    if (!invoice.ok) {
      if (!invoice.uncertain) this.settings.dropPendingClaims();
      return invoice;
    }
    const now = new Date().toISOString();
    // The tables are made here, with the order's first rows, not before the upstream call:
    // the output gate holds that call until everything written before it is committed, and
    // the claims alone are a far smaller commit than the whole schema. Nothing between the
    // DDL and the transaction awaits, so both land in one commit.
    if (!this.hasSchema) this.ensureSchema();
    this.ctx.storage.transactionSync(() => {
      if (!this.store.order()) {
        this.store.insertOrder({
          ...input,
          refundCurrency: null,
          refundAddress: null,
          createdAt: now,
        });
      }
      this.store.saveAttempt(newAttempt(1, invoice.value, input.amount, now));
      this.settings.dropPendingClaims();
    });
    return success(
      await this.#applyFacts(invoice.value, {
        type: "checkout.created",
        message: `payment attempt 1 opened (service order ${invoice.value.orderId})`,
      }),
    );
  }

  #createInvoice(config: Config, orderId: string, amount: string, order: InvoiceOrder) {
    const redirects = this.settings.redirects();
    return createAttemptInvoice(config, orderId, amount, order, redirects, this.logger());
  }

  /**
   * The catalogue entry of the crypto currency an invoice carries (its own code, never the
   * request's): `hint` or the attempt's when the code matches, else the live list; null when
   * the invoice has no currency yet or the list cannot be read now (a later read fills it).
   */
  async #currencyOf(
    invoice: Invoice,
    attempt: AttemptRow,
    hint: CryptoCurrency | null,
  ): Promise<CryptoCurrency | null> {
    const code = invoice.cryptoCurrencyCode;
    if (!code) return null;
    if (hint?.code === code) return hint;
    if (attempt.currency?.code === code) return attempt.currency;
    return this.#catalogueEntry(invoice);
  }

  /**
   * The catalogue entry of an invoice's crypto currency when its attempt does not hold it yet;
   * null when it does, when the invoice names none, or when the list cannot be read now.
   */
  async #catalogueEntry(invoice: Invoice): Promise<CryptoCurrency | null> {
    const code = invoice.cryptoCurrencyCode;
    const held = this.hasSchema ? this.store.attemptCurrencyCode(invoice.id) : undefined;
    if (!code || held === undefined || held === code) return null;
    try {
      return (await cryptoCurrencies(this.config())).find((c) => c.code === code) ?? null;
    } catch {
      return null;
    }
  }

  /** How an attempt's invoice is followed (`follow-plan.ts`). */
  #plan(order: OrderRow, attempt: AttemptRow, invoiceCode: string | null): FollowPlan {
    return invoiceFollowPlan(order, attempt, invoiceCode, Date.now(), this.watched());
  }

  protected override watched(): boolean {
    return this.events.watched;
  }

  /**
   * Applies an authoritative invoice (`apply-invoice.ts` `applyInvoiceRead`: stale, or what it
   * changes) through the one apply sequence, and answers the snapshot (the current one when
   * nothing was appended). A `quiet` recording (reconciliation) appends an event only when
   * something changed.
   */
  async #applyFacts(
    invoice: Invoice,
    recording: Recording,
    hint: CryptoCurrency | null = null,
  ): Promise<CheckoutSnapshot> {
    const order = this.store.order();
    const attempt = this.store.attemptByInvoiceId(invoice.id);
    if (!order || !attempt) throw new Error("applyFacts needs a known attempt");
    const currency = await this.#currencyOf(invoice, attempt, hint);
    const sql = this.store.sql;
    const refunds = readRefunds(sql);
    const hold = readHold(sql)?.reason ?? null;
    const state = {
      order,
      attempt,
      attempts: this.store.attempts(),
      refunds,
      terms: this.#terms(),
      known: knownFacts(sql, "invoice", invoice.id),
      lock: this.settings.lockFact(invoice.id),
      currency,
      hold,
      paidQueued: this.outbox.has("order.paid"),
      now: new Date().toISOString(),
    };
    const read = applyInvoiceRead(state, invoice, recording);
    // Records this read and the next one's time, planned from the attempt as the read leaves it.
    const admit = (row: AttemptRow) =>
      admitRead(
        sql,
        "invoice",
        invoice.id,
        invoiceFacts(invoice),
        this.#plan(order, row, invoice.cryptoCurrencyCode),
        invoice,
      );
    if (read.kind === "stale") {
      return this.#commitRead(recording.type, {
        stale: true,
        // The index learns the summary in the same write.
        record: () => {
          admit(attempt);
          this.#syncIndex();
        },
        write: () => [],
        append: () => (read.event === null ? null : this.#append(recording.type, read.event)),
      });
    }
    const { terms } = state;
    return this.#commitRead(recording.type, {
      stale: false,
      record: () => admit(read.attempt),
      write: () => {
        this.store.saveAttempt(read.attempt);
        if (read.payment) this.store.insertPayment(read.payment);
        return read.notifications;
      },
      append: () =>
        this.#append(recording.type, read.event, {
          order,
          attempts: read.attempts,
          refunds,
          terms,
          totals: read.totals,
          hold,
        }),
    });
  }

  /**
   * Runs a read's change through the one apply sequence (`core/events/apply-sequence.ts`) and
   * answers the snapshot: the new event's, or the current one when nothing was appended.
   */
  async #commitRead(
    type: string,
    change: Change<Appended<CheckoutSnapshot>>,
  ): Promise<CheckoutSnapshot> {
    const event = await this.applyChange(change, (appended) => this.#publish(appended, type));
    return event ? event.snapshot : this.#snapshotAt(this.log.lastSeq());
  }

  /** Reads a followed invoice from the service and applies it (alarm, inside the lane). */
  protected override async readFollowed(target: Followed): Promise<void> {
    const attempt = this.hasSchema ? this.store.attemptByInvoiceId(target.id) : null;
    if (!attempt || target.kind !== "invoice") {
      forgetFollowed(this.store.sql, target);
      return;
    }
    const invoice = await upstreamFor(this.config(), RECONCILE_READ).getInvoice({ id: target.id });
    await this.#applyRead(invoice);
  }

  /** A listed invoice from the reconciler, applied as a read (inside the lane). */
  protected override async applyListed(listed: ListedRecord): Promise<void> {
    if (listed.kind !== "invoice" || !this.store.attemptByInvoiceId(listed.record.id)) return;
    await this.#applyRead(listed.record);
  }

  /** A reconciliation read (single `GET` or list page): an event only when something changed. */
  async #applyRead(invoice: Invoice): Promise<void> {
    await this.#applyFacts(invoice, {
      type: "invoice.read",
      message: `checked with the service: ${invoice.orderId} is ${inWords(invoice.status)}`,
      quiet: true,
    });
  }

  /** The current snapshot, or 404 when the order does not exist. */
  async view(): Promise<Outcome<CheckoutSnapshot>> {
    if (!this.#current()) return failure(404, "not_found", "No such checkout.");
    return success(this.#snapshotAt(this.log.lastSeq()));
  }

  /**
   * Locks a crypto currency on the current attempt (in-page mode), in the lane: locks of one
   * attempt never race. A lock for the currency already locked answers the snapshot without
   * calling the service; others are throttled per checkout (`lock-throttle.ts`). The currency,
   * amount and address shown are the ones of the invoice the service answers, whatever was asked.
   */
  lockCurrency(currency: CryptoCurrency): Promise<Outcome<CheckoutSnapshot>> {
    return this.lane.run(() => this.#lock(currency));
  }

  async #lock(currency: CryptoCurrency): Promise<Outcome<CheckoutSnapshot>> {
    const attempt = this.#current();
    if (!attempt) return failure(404, "not_found", "No such checkout.");
    const refunded = this.#refundedGuard();
    if (refunded) return refunded;
    // Paid by another attempt (late money on an ended one): no address for this one is offered.
    const order = this.store.order()!;
    if (orderTotals(order, this.store.attempts(), [], this.#terms()).state === "paid")
      return failure(409, "order_paid", "This order is already paid.");
    const refused = lockRefusal(attempt, this.#mode());
    if (refused) return refused;
    const unconfirmed = this.settings.lockUnconfirmed(attempt.invoiceId);
    if (
      !unconfirmed &&
      attempt.currency?.code === currency.code &&
      attempt.address &&
      attempt.cryptoExpected
    ) {
      return success(this.#snapshotAt(this.log.lastSeq()));
    }
    const slot = takeSlot(this.ctx.storage.kv, CURRENCY_LOCKS, Date.now());
    if (!slot.ok) {
      return failure(
        429,
        "rate_limited",
        `Too many currency changes for this checkout; try again in ${slot.retryAfter} s.`,
        slot.retryAfter,
      );
    }
    // Written ahead: an answer lost, or an object reset before the answer is applied, leaves it.
    this.settings.markLockUnconfirmed(attempt.invoiceId);
    try {
      const invoice = await lockInvoiceCurrency(upstreamFor(this.config()), {
        invoiceId: attempt.invoiceId,
        cryptoCurrencyCode: currency.code,
      });
      this.store.saveAttempt({
        ...this.store.attemptByInvoiceId(attempt.invoiceId)!,
        lockExpiresAt: invoice.expiresAt,
      });
      const snapshot = await this.#applyFacts(
        invoice,
        {
          type: "currency.locked",
          message: `shopper chose ${invoice.cryptoCurrencyCode} (service order ${attempt.orderId})`,
        },
        currency,
      );
      // The answer is newer than every terms it replaced: a lagging read cannot bring them back.
      const before = paymentTerms({
        cryptoCurrencyCode: attempt.currency?.code ?? null,
        cryptoAmountExpected: attempt.cryptoExpected,
        address: attempt.address,
      });
      const answered = paymentTerms(invoice);
      if (answered) {
        const previous = this.settings.lastLockFact(attempt.invoiceId);
        this.settings.setLockFact(attempt.invoiceId, afterLock(previous, before, answered));
      }
      this.settings.confirmLock();
      return success(snapshot);
    } catch (error) {
      if (error instanceof CurrencyLockUnsupportedError)
        return success(await this.#switchToHosted());
      if (isUncertainFailure(error)) {
        // The service may have locked this currency without us hearing it (the mark
        // stays): the invoice is read back soon.
        hurryReads(this.store.sql, Date.now() + CATCH_UP_MS, {
          kind: "invoice",
          id: attempt.invoiceId,
        });
        await this.armAlarm();
      }
      return upstreamFailure(error, this.logger());
    }
  }

  /**
   * The service answered a lock as an unknown route: this order, and the deployment, continue
   * on the service's payment page. The shopper gets the hosted snapshot, never an error.
   */
  async #switchToHosted(): Promise<CheckoutSnapshot> {
    this.settings.setMode("hosted");
    const snapshot = this.#record(
      "mode.hosted",
      "the service has no currency lock: continue on its payment page",
    );
    this.logger().warn("payment_mode.switched", { to: "hosted" });
    await switchToHosted(this.env, this.config());
    return snapshot;
  }

  /** Why the next attempt may not start now, or null (`payment-refusals.ts`). */
  #retryRefusal(): Outcome<never> | null {
    return this.#refundedGuard() ?? retryRefusal(this.#snapshotAt(this.log.lastSeq()));
  }

  /**
   * Starts the next attempt (`-2`, `-3`, …) after the current one ended unpaid.
   *
   * Invariant: the amount due is computed after every webhook in flight for the order's
   * invoices was applied, and none of them applies while the next invoice is created, so money
   * that reached an earlier (ended) attempt before the retry is never asked for again.
   */
  async retry(): Promise<Outcome<CheckoutSnapshot>> {
    const attempt = this.#current();
    const order = attempt ? this.store.order() : null;
    if (!order || !attempt) return failure(404, "not_found", "No such checkout.");
    const refused = this.#retryRefusal();
    if (refused) return refused;
    return this.lane.run(() => this.#creatingWhile(() => this.#nextAttempt(order, attempt.number)));
  }

  async #nextAttempt(order: OrderRow, seen: number): Promise<Outcome<CheckoutSnapshot>> {
    const current = this.store.currentAttempt()!;
    if (current.number !== seen) return success(this.#snapshotAt(this.log.lastSeq()));
    // Webhooks applied while this call waited may have paid the order or closed it.
    const refused = this.#retryRefusal();
    if (refused) return refused;
    const config = this.config();
    const due = orderTotals(order, this.store.attempts(), [], this.#terms()).due;
    let number = seen + 1;
    let orderId = attemptOrderId(config.ORDER_ID_PREFIX, order.invoiceNumber, number);
    let invoice = await this.#createInvoice(config, orderId, due, order);
    // The service holds the orderId with other terms: an earlier try of ours whose answer was
    // lost before more money changed what is due (no shopper ever saw it), or another order's.
    // No attempt of this order uses it: take the next number (bounded).
    for (
      let skips = 0;
      !invoice.ok && isOrderIdTaken(invoice) && skips < MAX_ORDER_ID_SKIPS;
      skips++
    ) {
      number += 1;
      orderId = attemptOrderId(config.ORDER_ID_PREFIX, order.invoiceNumber, number);
      invoice = await this.#createInvoice(config, orderId, due, order);
    }
    if (!invoice.ok) return invoice;
    this.store.saveAttempt(newAttempt(number, invoice.value, due, new Date().toISOString()));
    return success(
      await this.#applyFacts(invoice.value, {
        type: "attempt.created",
        message: `payment attempt ${number} opened for ${due} ${order.currency} (service order ${orderId})`,
      }),
    );
  }

  /**
   * Stores the shopper's refund address (already validated by the route); frozen once a refund
   * is in flight, throttled per checkout (`order/refunds/address.ts`).
   */
  async setRefundAddress(
    cryptoCurrencyCode: string,
    address: string,
  ): Promise<Outcome<CheckoutSnapshot>> {
    const order = this.#current() ? this.store.order() : null;
    if (!order) return failure(404, "not_found", "No such checkout.");
    const saved = order.refundCurrency && order.refundAddress;
    const may = refundAddressChange(
      this.store.sql,
      this.ctx.storage.kv,
      saved ? { cryptoCurrencyCode: order.refundCurrency!, address: order.refundAddress! } : null,
      { cryptoCurrencyCode, address },
      Date.now(),
    );
    if (!may.ok) return may;
    if (may.value === "unchanged") return success(this.#snapshotAt(this.log.lastSeq()));
    this.store.setRefundAddress(cryptoCurrencyCode, address);
    return success(
      this.#record("refund_address.set", `refund address for ${cryptoCurrencyCode} saved`),
    );
  }

  /**
   * Handles a verified `invoice.statusChanged`: its signed invoice is admitted and applied as a
   * read (refetched only when the delivery carries no whole invoice); 2xx only as
   * `StoredObject.applyWebhook` rules. Quiet: a delivery that changes nothing appends no event,
   * so a client that saw the final event still gets 204.
   */
  async applyInvoiceWebhook(delivery: Delivery<Invoice>): Promise<DeliveryOutcome> {
    // A currency the attempt does not show yet is named from the catalogue before the lane, so
    // no catalogue call holds the object's upstream work.
    const hint = delivery.record ? await this.#catalogueEntry(delivery.record) : null;
    const apply = async (invoice: Invoice) => {
      const message = `the service reports ${invoice.orderId} ${inWords(invoice.status)}`;
      await this.#applyFacts(invoice, { type: "invoice.status", message, quiet: true }, hint);
      return undefined;
    };
    return this.applyWebhook("invoice", delivery, {
      owns: () => this.hasSchema && this.store.hasInvoice(delivery.id),
      admit: apply,
      refetch: async (client) => apply(await client.getInvoice({ id: delivery.id })),
    });
  }

  /**
   * Records a committed refund of this order, or a later status of its withdrawal (from the
   * payout object and the refund route; idempotent: the same report twice changes nothing).
   */
  recordRefund(refund: RefundRecord): Promise<Outcome<{ changed: boolean }>> {
    return this.lane.run(async () => this.#recordRefund(refund));
  }

  async #recordRefund(refund: RefundRecord): Promise<Outcome<{ changed: boolean }>> {
    if (!this.hasSchema || !this.store.order()) return failure(404, "not_found", "No such order.");
    const now = new Date().toISOString();
    let changed = false;
    const event = await this.#commitChange("refund.status", {
      write: () => {
        changed = writeRefund(this.store.sql, refund, now);
        // A refund that failed or was cancelled returned nothing: the order takes payment again.
        const released = changed && !isLive(refund) && releaseHold(this.store.sql, refund.orderId);
        return released ? this.#owedPaid(now) : [];
      },
      message: () =>
        changed
          ? `refund ${refund.orderId}: ${refund.amount} ${refund.cryptoCurrencyCode} ${refund.status}`
          : null,
    });
    return success({ changed: event !== null });
  }

  /**
   * A change the order makes itself (a refund recorded or abandoned) through the one apply
   * sequence: `write` answers the notifications to queue, `message` the event's words (null:
   * nothing changed, no event).
   */
  #commitChange(
    type: string,
    change: { write: () => readonly Notification[]; message: () => string | null },
  ): Promise<Appended<CheckoutSnapshot> | null> {
    return this.applyChange(
      {
        stale: false,
        record: () => {},
        write: change.write,
        append: () => {
          const message = change.message();
          return message === null ? null : this.#append(type, message);
        },
      },
      (event) => this.#publish(event, type),
    );
  }

  /** The order's owed `order.paid` after a hold was released (`notifications.ts` `owedPaid`). */
  #owedPaid(now: string): readonly Notification[] {
    const { sql } = this.store;
    const paidQueued = this.outbox.has("order.paid");
    const refunds = readRefunds(sql);
    const attempts = this.store.attempts();
    return owedPaid(this.store.order()!, attempts, refunds, this.#terms(), paidQueued, now);
  }

  /**
   * Begins a refund (`payout/refunds/refund-order.ts`): the order's live refund when it has one, else
   * checks what the order allows and takes the refund hold in one step (`order/refunds/hold.ts`), so
   * no retry or currency lock slips in between the check and the commit. 409 `attempt_open`
   * while a payment attempt is being opened.
   */
  beginRefund(): Promise<Outcome<RefundStart>> {
    return this.lane.run(async () => this.#beginRefund());
  }

  #beginRefund(): Outcome<RefundStart> {
    const order = this.hasSchema ? this.store.order() : null;
    if (!order) return failure(404, "not_found", "No such order.");
    const live = liveRefund(this.store.sql);
    if (live) return success({ kind: "live", refund: live });
    if (this.#creating) {
      return failure(
        409,
        "attempt_open",
        "A payment attempt is being opened for this order; refund once it is settled or ended.",
      );
    }
    const facts = refundFacts(this.store, order, this.#terms());
    const names = { prefix: this.config().ORDER_ID_PREFIX, invoiceNumber: order.invoiceNumber };
    return takeHold(this.store.sql, facts, names, new Date().toISOString());
  }

  /**
   * Ends a refund that definitely never reached the service (refused quote or commit): its
   * hold is released unless that refund was recorded live meanwhile.
   */
  abandonRefund(orderId: string): Promise<Outcome<{ released: boolean }>> {
    return this.lane.run(async () => {
      if (!this.hasSchema) return failure(404, "not_found", "No such order.");
      let released = false;
      const event = await this.#commitChange("refund.abandoned", {
        write: () => {
          released = releaseHold(this.store.sql, orderId);
          return released ? this.#owedPaid(new Date().toISOString()) : [];
        },
        // Watchers learn the hold ended (retry allowed again, or a paid state now final).
        message: () => (released ? `refund ${orderId} never reached the service` : null),
      });
      return success({ released: event !== null });
    });
  }

  /** The merchant's ledger view. */
  async ledger(): Promise<Outcome<OrderLedger>> {
    const order = this.hasSchema ? this.store.order() : null;
    if (!order) return failure(404, "not_found", "No such order.");
    return success(readLedger(this.store, this.log, order, this.#terms()));
  }

  /** `GET …/events`: the SSE stream (`core/events/event-stream.ts`). */
  override async fetch(request: Request): Promise<Response> {
    const render = this.#current() ? (seq: number) => this.#snapshotAt(seq) : null;
    return this.events.stream(request, render, "No such checkout.");
  }
}
