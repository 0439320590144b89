/**
 * @module
 * Applies one authoritative invoice (the create's or a lock's answer, a webhook's signed
 * record, a reconciliation read) to the order: reads the order's state, asks the pure
 * `applyInvoiceRead` (`apply-invoice.ts`) what it changes, writes that through the one apply
 * sequence (`core/events/apply-sequence.ts`) and answers the snapshot.
 *
 * Invariants:
 * - runs inside the object's lane: the state read here is the one the write lands on;
 * - the read's facts and next read time are recorded whether it is stale or not, planned
 *   from the attempt as the read leaves it (`follow-plan.ts`);
 * - the currency an attempt shows is the invoice's own code, never the request's.
 */

import type { CheckoutSnapshot, CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { cryptoCurrencies } from "../core/catalog/catalog.ts";
import { upstreamFor } from "../core/config/upstream.ts";
import { admitRead, type Followed, forgetFollowed, knownFacts } from "../core/converge/followed.ts";
import { RECONCILE_READ } from "../core/converge/reconcile.ts";
import type { Change } from "../core/events/apply-sequence.ts";
import type { Appended } from "../core/events/live-events.ts";
import { firstQueuedAt } from "../core/events/outbox-store.ts";
import type { ListedRecord } from "../core/reconciler/reconciler-rpc.ts";
import type { Invoice } from "../service/client.ts";
import { applyInvoiceRead, invoiceFacts, inWords, type Recording } from "./apply-invoice.ts";
import { invoiceFollowPlan } from "./follow-plan.ts";
import type { AdmittedFacts } from "./ledger-view.ts";
import type { OrderHost } from "./order-host.ts";
import { readHold } from "./refunds/hold.ts";
import { readRefunds } from "./refunds/records.ts";
import type { AttemptRow } from "./store.ts";

/**
 * The catalogue entry of an invoice's crypto currency when its attempt does not hold it yet;
 * null when it does, when the invoice names none, or when the list cannot be read now (a later
 * read fills it). Called before the lane for webhooks, so no catalogue call holds upstream work.
 *
 * @example
 * const hint = await catalogueEntry(host, delivery.record);
 */
export async function catalogueEntry(
  host: OrderHost,
  invoice: Invoice,
): Promise<CryptoCurrency | null> {
  const code = invoice.cryptoCurrencyCode;
  const held = host.hasSchema() ? host.store.attemptCurrencyCode(invoice.id) : undefined;
  if (!code || held === undefined || held === code) return null;
  try {
    return (await cryptoCurrencies(host.config())).find((c) => c.code === code) ?? null;
  } catch {
    return null;
  }
}

/** The invoice's currency: `hint` or the attempt's when the code matches, else the catalogue's. */
async function currencyOf(
  host: OrderHost,
  invoice: Invoice,
  attempt: AttemptRow,
  hint: CryptoCurrency | null,
): Promise<CryptoCurrency | null> {
  const code = invoice.cryptoCurrencyCode;
  if (!code) return null;
  if (hint?.code === code) return hint;
  if (attempt.currency?.code === code) return attempt.currency;
  return catalogueEntry(host, invoice);
}

/**
 * Applies an authoritative invoice and answers the snapshot (the current one when nothing was
 * appended). A `quiet` recording appends an event only when something changed.
 *
 * @example
 * const snapshot = await applyInvoice(host, invoice, { type: "currency.locked", message }, currency);
 */
export async function applyInvoice(
  host: OrderHost,
  invoice: Invoice,
  recording: Recording,
  hint: CryptoCurrency | null = null,
): Promise<CheckoutSnapshot> {
  const { store, journal } = host;
  const order = store.order();
  // Every attempt is read once: the one this invoice belongs to is among them.
  const attempts = store.attempts();
  const attempt = attempts.find((a) => a.invoiceId === invoice.id);
  if (!order || !attempt) throw new Error("applyInvoice needs a known attempt");
  const currency = await currencyOf(host, invoice, attempt, hint);
  const sql = store.sql;
  const refunds = readRefunds(sql);
  const hold = readHold(sql)?.reason ?? null;
  // The one `order.paid` an order sends: whether and when it was queued, read once.
  const paidAt = firstQueuedAt(sql, "order.paid");
  const state = {
    order,
    attempt,
    attempts,
    refunds,
    terms: journal.terms(),
    known: knownFacts(sql, "invoice", invoice.id),
    lock: host.settings.lockFact(invoice.id),
    currency,
    hold,
    paidQueued: paidAt !== null,
    now: new Date().toISOString(),
  };
  const read = applyInvoiceRead(state, invoice, recording);
  // Records this read and the next one's time, planned from the attempt as the read leaves it;
  // the facts as written go on to the index summary (`admitted`), not read back.
  let admitted: AdmittedFacts | undefined;
  const admit = (row: AttemptRow) => {
    const plan = invoiceFollowPlan(
      order,
      row,
      invoice.cryptoCurrencyCode,
      Date.now(),
      host.watched(),
    );
    const { facts } = admitRead(sql, "invoice", invoice.id, invoiceFacts(invoice), plan, invoice);
    admitted = { invoiceId: invoice.id, facts };
  };
  if (read.kind === "stale") {
    return commitRead(host, recording.type, {
      stale: true,
      // The index learns the summary in the same write.
      record: () => {
        admit(attempt);
        journal.syncIndex();
      },
      write: () => [],
      append: () => (read.event === null ? null : journal.append(recording.type, read.event)),
    });
  }
  const { terms } = state;
  return commitRead(host, recording.type, {
    stale: false,
    record: () => admit(read.attempt),
    write: () => {
      store.saveAttempt(read.attempt);
      if (read.payment) store.insertPayment(read.payment);
      return read.notifications;
    },
    append: () =>
      journal.append(recording.type, read.event, {
        order,
        attempts: read.attempts,
        refunds,
        terms,
        totals: read.totals,
        hold,
        // Queued in this very transaction when it is the first (`write` ran before `append`).
        paidAt:
          paidAt ?? read.notifications.find((n) => n.type === "order.paid")?.createdAt ?? null,
        ...(admitted ? { admitted } : {}),
      }),
  });
}

/** A reconciliation read (single `GET` or list page): an event only when something changed. */
async function applyReconcileRead(host: OrderHost, invoice: Invoice): Promise<void> {
  await applyInvoice(host, invoice, {
    type: "invoice.read",
    message: `checked with the service: ${invoice.orderId} is ${inWords(invoice.status)}`,
    quiet: true,
  });
}

/**
 * Reads a followed invoice from the service and applies it (alarm or reconciler, inside the
 * lane); a followed object that is no attempt's invoice is forgotten.
 *
 * @example
 * protected override readFollowed(target) { return readFollowedInvoice(this.#host, target); }
 */
export async function readFollowedInvoice(host: OrderHost, target: Followed): Promise<void> {
  const attempt = host.hasSchema() ? host.store.attemptByInvoiceId(target.id) : null;
  if (!attempt || target.kind !== "invoice") {
    forgetFollowed(host.store.sql, target);
    return;
  }
  const invoice = await upstreamFor(host.config(), RECONCILE_READ).getInvoice({ id: target.id });
  await applyReconcileRead(host, invoice);
}

/**
 * Applies an invoice the reconciler listed, as a read (inside the lane); anything else is
 * ignored.
 *
 * @example
 * protected override applyListed(listed) { return applyListedInvoice(this.#host, listed); }
 */
export async function applyListedInvoice(host: OrderHost, listed: ListedRecord): Promise<void> {
  if (listed.kind !== "invoice" || !host.store.attemptByInvoiceId(listed.record.id)) return;
  await applyReconcileRead(host, listed.record);
}

/**
 * How a verified webhook's invoice is applied: as a quiet read (a delivery that changes
 * nothing appends no event), with the currency named before the lane (`hint`).
 *
 * @example
 * const apply = webhookApply(host, await catalogueEntry(host, delivery.record));
 */
export function webhookApply(host: OrderHost, hint: CryptoCurrency | null) {
  return async (invoice: Invoice): Promise<undefined> => {
    const message = `the service reports ${invoice.orderId} ${inWords(invoice.status)}`;
    await applyInvoice(host, invoice, { type: "invoice.status", message, quiet: true }, hint);
    return undefined;
  };
}

/** Runs a read's change through the apply sequence; answers the new event's snapshot or the current one. */
async function commitRead(
  host: OrderHost,
  type: string,
  change: Change<Appended<CheckoutSnapshot>>,
): Promise<CheckoutSnapshot> {
  const event = await host.applyChange(change, (appended) => host.journal.publish(appended, type));
  return event ? event.snapshot : host.journal.current();
}
