/**
 * @module
 * Attempt rows from upstream invoices: the first write of an attempt, and the refresh of its
 * upstream facts (currency, amounts, address) without touching what was applied.
 *
 * Invariant: facts are monotonic. An invoice read can land after a newer one was applied (the
 * order object serialises its webhook reads, but other paths and retries still race), so a
 * read older than what the attempt holds never replaces its facts, and `cryptoReceived` never
 * decreases.
 */
import type { CryptoCurrency, InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import { cmp, max } from "../lib/money/decimal.ts";
import type { Invoice } from "../service/client.ts";
import { effectiveStatus } from "./ledger.ts";
import { acceptsStatus } from "./status.ts";
import type { AttemptRow } from "./store.ts";

/**
 * A new attempt row for a freshly created upstream invoice. Status starts at `created`
 * whatever the invoice says; the ledger applies the invoice's real status next.
 */
export function newAttempt(
  number: number,
  invoice: Invoice,
  fiatAmount: string,
  now: string,
): AttemptRow {
  return {
    number,
    orderId: invoice.orderId ?? "",
    invoiceId: invoice.id,
    fiatAmount,
    status: "created" as InvoiceStatus,
    ended: false,
    paymentPageUrl: invoice.paymentPageUrl,
    expiresAt: invoice.expiresAt,
    currency: null,
    cryptoExpected: invoice.cryptoAmountExpected,
    cryptoReceived: invoice.cryptoAmountReceived ?? "0",
    address: invoice.address,
    lockExpiresAt: null,
    cryptoApplied: "0",
    fiatApplied: "0",
    fiatOverpaid: "0",
    settlement: null,
    updatedAt: now,
  };
}

/**
 * Whether an invoice read is at least as new as the facts the attempt holds: more crypto
 * received, or as much and a status the attempt may move to (or already has).
 *
 * @example
 * isCurrentRead(paidAttempt, partiallyPaidInvoice) // false: a stale read, keep the paid facts
 */
export function isCurrentRead(attempt: AttemptRow, invoice: Invoice): boolean {
  const received = invoice.cryptoAmountReceived ?? "0";
  const order = cmp(received, attempt.cryptoReceived);
  if (order !== 0) return order > 0;
  const status = effectiveStatus(invoice.status, received);
  return status === attempt.status || acceptsStatus(attempt.status, status, false);
}

/**
 * Refreshes the upstream facts of an attempt from a current read; from a stale read only
 * fills facts the attempt lacks. `currency` is the catalogue entry for the invoice's crypto
 * currency when known (needed for wallet links).
 */
export function withInvoiceFacts(
  attempt: AttemptRow,
  invoice: Invoice,
  currency: CryptoCurrency | null,
  now: string,
): AttemptRow {
  if (!isCurrentRead(attempt, invoice)) {
    return {
      ...attempt,
      expiresAt: attempt.expiresAt ?? invoice.expiresAt,
      currency: currency ?? attempt.currency,
      cryptoExpected: attempt.cryptoExpected ?? invoice.cryptoAmountExpected,
      address: attempt.address ?? invoice.address,
      settlement: attempt.settlement ?? (invoice.settlement as Record<string, unknown> | null),
      updatedAt: now,
    };
  }
  // The invoice's own currency wins: a catalogue entry of another code is never kept beside
  // the invoice's amount and address (null until the entry of the invoice's code is known).
  const code = invoice.cryptoCurrencyCode;
  const kept = code && attempt.currency?.code !== code ? null : attempt.currency;
  const given = currency && (!code || currency.code === code) ? currency : null;
  return {
    ...attempt,
    expiresAt: invoice.expiresAt ?? attempt.expiresAt,
    currency: given ?? kept,
    cryptoExpected: invoice.cryptoAmountExpected ?? attempt.cryptoExpected,
    cryptoReceived: max(invoice.cryptoAmountReceived ?? "0", attempt.cryptoReceived),
    address: invoice.address ?? attempt.address,
    settlement: (invoice.settlement as Record<string, unknown> | null) ?? attempt.settlement,
    updatedAt: now,
  };
}
