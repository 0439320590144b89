/**
 * @module
 * `OrderJournal`: what an order tells about itself. Its snapshot at any event (`snapshot.ts`),
 * the events it appends and publishes through its EventStream capability, its summary in the
 * account's index feed, and the terms and mode every snapshot is built with.
 *
 * Invariants:
 * - every change of the order appends an event and writes its summary to the index feed in
 *   the same transaction, so the index learns exactly what committed;
 * - an event is published only after its write committed (the caller's apply sequence does
 *   that, `core/events/apply-sequence.ts`).
 */

import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import type { Config } from "../core/config/config.ts";
import type { PaymentMode } from "../core/config/mode-decision.ts";
import { x402Settings } from "../core/config/x402-settings.ts";
import type { EventLog } from "../core/events/event-log.ts";
import type { EventStream } from "../core/events/event-stream.ts";
import { feedPut } from "../core/events/index-feed.ts";
import type { Appended } from "../core/events/live-events.ts";
import type { Outcome } from "../lib/outcome/outcome.ts";
import type { AdmittedFacts } from "./ledger-view.ts";
import type { OrderSettings } from "./order-settings.ts";
import { orderSummary } from "./order-summary.ts";
import { refundedRefusal } from "./payment-refusals.ts";
import { readHold } from "./refunds/hold.ts";
import { type RefundRecord, readRefunds } from "./refunds/records.ts";
import { buildSnapshot, orderTotals, type PaymentTerms } from "./snapshot.ts";
import type { AttemptRow, OrderRow, OrderStore } from "./store.ts";
import { x402Payments } from "./x402/payments-table.ts";

/** The order's row in its index feed (`core/events/index-feed.ts`). */
export const ORDER_FEED_KEY = "order";

/** What an invoice apply read and computed inside its transaction, reused by its snapshot. */
export interface OrderRead {
  order: OrderRow;
  attempts: AttemptRow[];
  refunds: RefundRecord[];
  terms: PaymentTerms;
  totals: ReturnType<typeof orderTotals>;
  hold: "overpaid" | "partially_paid" | null;
  /** When the first `order.paid` was queued, as the change leaves it (null: never). */
  paidAt?: string | null;
  /** The facts of the invoice the change just admitted, as written. */
  admitted?: AdmittedFacts;
}

/** What the journal needs of its order. */
export interface OrderJournalHost {
  readonly store: OrderStore;
  readonly settings: OrderSettings;
  readonly log: EventLog;
  readonly events: EventStream<CheckoutSnapshot>;
  config(): Config;
}

/**
 * The order's snapshots, events and index summary.
 *
 * @example
 * const journal = new OrderJournal({ store, settings, log, events, config });
 * const snapshot = journal.record("refund_address.set", "refund address for TRX saved");
 */
export class OrderJournal {
  readonly #host: OrderJournalHost;

  constructor(host: OrderJournalHost) {
    this.#host = host;
  }

  /**
   * The order's payment mode: the deployment's when it opened, switched to `hosted` when the
   * service turned out to have no currency lock (stored before modes were kept: hosted).
   */
  mode(): PaymentMode {
    return this.#host.settings.mode();
  }

  /** The merchant's tolerance (as when the order opened) and the fiat's minimum invoice. */
  terms(): PaymentTerms {
    const { settings } = this.#host;
    return {
      tolerancePercent: settings.tolerance() ?? this.#host.config().PAYMENT_TOLERANCE_PERCENT,
      minInvoiceAmount: settings.fiatMinimum(),
    };
  }

  /**
   * The snapshot at `seq`. `read` passes rows, terms and totals the caller read in the same
   * transaction (an invoice apply), so they are not read and computed again.
   */
  snapshotAt(seq: number, read?: OrderRead): CheckoutSnapshot {
    const { store } = this.#host;
    const config = this.#host.config();
    const order = read?.order ?? store.order();
    if (!order) throw new Error("no order");
    return buildSnapshot(
      order,
      read?.attempts ?? store.attempts(),
      {
        displayName: config.DISPLAY_NAME,
        sandbox: config.SANDBOX,
        mode: this.mode(),
        seq,
        now: new Date().toISOString(),
        terms: read?.terms ?? this.terms(),
        ...(read ? { totals: read.totals } : {}),
        refundHold: read ? read.hold : (readHold(store.sql)?.reason ?? null),
        x402: { settings: x402Settings(config), latest: x402Payments.latest(store.sql) },
      },
      read?.refunds ?? readRefunds(store.sql),
    );
  }

  /** The sequence number of the order's last event (what watchers last saw). */
  lastSeq(): number {
    return this.#host.log.lastSeq();
  }

  /** The snapshot at the last event. */
  current(): CheckoutSnapshot {
    return this.snapshotAt(this.#host.log.lastSeq());
  }

  /** The order's state from its ledger alone (no snapshot built), or null before it opened. */
  orderState(): ReturnType<typeof orderTotals>["state"] | null {
    const { store } = this.#host;
    const order = store.order();
    if (!order) return null;
    return orderTotals(order, store.attempts(), readRefunds(store.sql), this.terms()).state;
  }

  /**
   * Writes the order's summary to its index feed (inside the caller's write); an unchanged
   * summary costs no new version. `read`: what the apply already computed (the order, its
   * terms, attempts, refunds and totals), reused rather than read and computed again.
   */
  syncIndex(read?: OrderRead, updatedAt?: string): void {
    const { store, log } = this.#host;
    const order = read?.order ?? store.order();
    if (!order) return;
    const terms = read?.terms ?? this.terms();
    const summary = orderSummary(store, log, order, terms, read, updatedAt);
    feedPut(store.sql, ORDER_FEED_KEY, "order", JSON.stringify(summary), Date.now());
  }

  /** Appends an event with its snapshot and the index summary (inside the caller's transaction). */
  append(type: string, message: string, read?: OrderRead): Appended<CheckoutSnapshot> {
    const appended = this.#host.events.append(type, message, (seq) => this.snapshotAt(seq, read));
    // The summary's `updatedAt` is this event's time (no read back of the row just written).
    this.syncIndex(read, appended.at);
    return appended;
  }

  /** Pushes an appended event to every watcher; call only after its write committed. */
  publish(event: Appended<CheckoutSnapshot>, type: string): CheckoutSnapshot {
    const { invoiceNumber, attempt } = event.snapshot;
    return this.#host.events.publish(event, type, { invoiceNumber, status: attempt.status });
  }

  /** Appends and publishes an event outside any other write. */
  record(type: string, message: string): CheckoutSnapshot {
    return this.publish(this.append(type, message), type);
  }

  /** 409 `order_refunded` while a refund closed or holds the order (`payment-refusals.ts`). */
  refundedGuard(): Outcome<never> | null {
    const { store } = this.#host;
    const order = store.order();
    if (!order) return null;
    const held = readHold(store.sql) !== null;
    return refundedRefusal(order, store.attempts(), readRefunds(store.sql), held, this.terms());
  }
}
