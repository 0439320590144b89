/**
 * @module
 * Attempt rows from upstream invoices: the first write of an attempt, and the refresh of its
 * upstream facts (currency, amounts, address) without touching what was applied.
 */
import type { CryptoCurrency, InvoiceStatus } from "../api/contract.ts";
import type { Invoice } from "../upstream/client.ts";
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
 * Refreshes the upstream facts of an attempt. `currency` is the catalogue entry for the
 * invoice's crypto currency when known (needed for wallet links).
 */
export function withInvoiceFacts(
  attempt: AttemptRow,
  invoice: Invoice,
  currency: CryptoCurrency | null,
  now: string,
): AttemptRow {
  return {
    ...attempt,
    expiresAt: invoice.expiresAt ?? attempt.expiresAt,
    currency: currency ?? attempt.currency,
    cryptoExpected: invoice.cryptoAmountExpected ?? attempt.cryptoExpected,
    cryptoReceived: invoice.cryptoAmountReceived ?? attempt.cryptoReceived,
    address: invoice.address ?? attempt.address,
    settlement: (invoice.settlement as Record<string, unknown> | null) ?? attempt.settlement,
    updatedAt: now,
  };
}
