/**
 * @module invoice-status
 * The invoice status graph (the service's API leaves transitions "not shown"; this is the sandbox's
 * documented choice) and the one function that moves an invoice and emits its webhook.
 */
import { settlementView } from "./settlement.ts";
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
 * The invoice object exactly as GET /invoice returns it (SDK `Invoice`): a field the invoice
 * does not have yet, or was created without, is absent (the SDK types it optional), never
 * `null`; `items` is always an array (empty for an amount-form invoice); the URLs, customerId
 * and customPayload given at creation are echoed; `source` is `api` (created with the API key).
 * @example
 * invoiceView(inv).status; // "created"
 * "cryptoCurrencyCode" in invoiceView(inv); // false until the payer locks a currency
 */
export function invoiceView(inv: InvoiceRecord) {
  const present = <T>(value: T | null) => value ?? undefined;
  return {
    id: inv.id,
    accountId: inv.accountId,
    orderId: present(inv.orderId),
    amount: inv.amount,
    fiatCurrencyCode: inv.fiatCurrencyCode,
    items: inv.items ?? [],
    status: inv.status,
    cryptoCurrencyCode: present(inv.cryptoCurrencyCode),
    cryptoAmountExpected: present(inv.cryptoAmountExpected),
    cryptoAmountReceived: present(inv.cryptoAmountReceived),
    address: present(inv.address),
    txHash: present(inv.txHash),
    settlement: inv.settlement === null ? undefined : settlementView(inv.settlement),
    description: present(inv.description),
    number: present(inv.number),
    webhookUrl: present(inv.webhookUrl),
    returnUrl: present(inv.returnUrl),
    successUrl: present(inv.successUrl),
    failedUrl: present(inv.failedUrl),
    expiresAt: inv.expiresAt,
    createdAt: inv.createdAt,
    paidAt: present(inv.paidAt),
    customerId: present(inv.customerId),
    customPayload: present(inv.customPayload),
    paymentPageUrl: inv.paymentPageUrl,
    source: "api" as const,
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
