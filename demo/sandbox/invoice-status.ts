/**
 * @module invoice-status
 * The invoice status graph (the service's API leaves transitions "not shown"; this is the sandbox's
 * documented choice) and the one function that moves an invoice and emits its webhook.
 */
import type { InvoiceRecord, InvoiceStatus, SandboxState } from "./state.ts";
import { emitWebhook } from "./webhooks.ts";

/** Allowed moves. paid, overpaid, expired, failed and cancelled are final. */
export const INVOICE_TRANSITIONS: Record<InvoiceStatus, readonly InvoiceStatus[]> = {
  created: ["processing", "expired", "cancelled", "failed"],
  processing: ["paid", "overpaid", "partially_paid", "suspended", "failed"],
  suspended: ["processing", "paid", "failed"],
  partially_paid: ["paid", "overpaid", "expired"],
  paid: [],
  overpaid: [],
  expired: [],
  failed: [],
  cancelled: [],
};

export const INVOICE_STATUSES = Object.keys(INVOICE_TRANSITIONS) as InvoiceStatus[];

/**
 * Whether an invoice may move from one status to another.
 * @example
 * canMove("created", "paid"); // false: a payment is processing first
 */
export function canMove(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return INVOICE_TRANSITIONS[from].includes(to);
}

/**
 * The invoice object exactly as GET /invoice returns it.
 * @example
 * invoiceView(inv).status; // "created"
 */
export function invoiceView(inv: InvoiceRecord) {
  return {
    id: inv.id,
    accountId: inv.accountId,
    orderId: inv.orderId,
    amount: inv.amount,
    fiatCurrencyCode: inv.fiatCurrencyCode,
    items: inv.items,
    status: inv.status,
    cryptoCurrencyCode: inv.cryptoCurrencyCode,
    cryptoAmountExpected: inv.cryptoAmountExpected,
    cryptoAmountReceived: inv.cryptoAmountReceived,
    address: inv.address,
    txHash: inv.txHash,
    settlement: inv.settlement,
    expiresAt: inv.expiresAt,
    createdAt: inv.createdAt,
    paidAt: inv.paidAt,
    paymentPageUrl: inv.paymentPageUrl,
    customPayload: inv.customPayload,
    description: inv.description,
    number: inv.number,
  };
}

/**
 * Moves an invoice (caller has checked {@link canMove}) and emits `invoice.statusChanged`.
 * @example
 * await moveInvoice(state, inv, "processing");
 */
export function moveInvoice(state: SandboxState, inv: InvoiceRecord, to: InvoiceStatus) {
  const previousStatus = inv.status;
  inv.status = to;
  return emitWebhook(state, {
    event: "invoice.statusChanged",
    objectId: inv.id,
    orderId: inv.orderId,
    url: inv.webhookUrl,
    data: invoiceView(inv),
    previousStatus,
  });
}

/**
 * Expires every `created` invoice whose deadline has passed (lazy check + sweep timer).
 * @example
 * expireDue(state);
 */
export function expireDue(state: SandboxState): void {
  const now = state.now().getTime();
  for (const inv of state.invoices.values()) {
    if (inv.status === "created" && Date.parse(inv.expiresAt) <= now) {
      void moveInvoice(state, inv, "expired");
    }
  }
}
