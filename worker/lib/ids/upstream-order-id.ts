/**
 * @module
 * The orderIds the worker gives the service, written and parsed here only. The orderId names
 * one upstream object (an invoice attempt, a deposit, a refund withdrawal), never the order:
 *
 * - invoice attempt `n` of an order: `<prefix>-<invoiceNumber>` (n = 1), then `-2`, `-3`, …;
 * - a top-up's deposit: `<prefix>-<topUpId>` (a top-up has exactly one deposit);
 * - refund `n` of an order: `<prefix>-<invoiceNumber>-refund`, then `-refund-2`, … A new number
 *   starts only when the previous refund's withdrawal ended `failed` or `cancelled` (the service
 *   backs at most one withdrawal per orderId). Merchant payouts may not use this shape
 *   (`isRefundOrderId`), so the two never share a payout object.
 *
 * The attempt suffix is ambiguous on its own (`cc-A-2` is order `A-2`, or attempt 2 of `A`),
 * which is why invoices also carry the ownership tag (`ownership-tag.ts`).
 */

const REFUND_SUFFIX = /-refund(?:-([1-9]\d*))?$/;

/**
 * The orderId of invoice attempt `n` of an order.
 *
 * @example
 * attemptOrderId("cc", "1001", 1); // "cc-1001"
 * attemptOrderId("cc", "1001", 3); // "cc-1001-3"
 */
export function attemptOrderId(prefix: string, invoiceNumber: string, n: number): string {
  return n === 1 ? `${prefix}-${invoiceNumber}` : `${prefix}-${invoiceNumber}-${n}`;
}

/**
 * The invoice numbers an attempt orderId may stand for: the whole rest, and the rest without a
 * trailing `-<digits>`; none for another prefix.
 *
 * @example
 * attemptInvoiceNumbers("cc", "cc-A-2"); // ["A-2", "A"]
 */
export function attemptInvoiceNumbers(prefix: string, orderId: string): string[] {
  if (!orderId.startsWith(`${prefix}-`)) return [];
  const rest = orderId.slice(prefix.length + 1);
  const attempt = /^(.+)-(\d+)$/.exec(rest);
  return attempt?.[1] ? [rest, attempt[1]] : [rest];
}

/**
 * The orderId of a top-up's deposit.
 *
 * @example
 * depositOrderId("cc", "t-42"); // "cc-t-42"
 */
export function depositOrderId(prefix: string, topUpId: string): string {
  return `${prefix}-${topUpId}`;
}

/**
 * The top-up id of a deposit orderId, or "" for another prefix.
 *
 * @example
 * depositTopUpId("cc", "cc-t-42"); // "t-42"
 */
export function depositTopUpId(prefix: string, orderId: string): string {
  return orderId.startsWith(`${prefix}-`) ? orderId.slice(prefix.length + 1) : "";
}

/**
 * The orderId of refund attempt `n` of an order.
 *
 * @example
 * refundOrderId("cc", "1001", 1); // "cc-1001-refund"
 * refundOrderId("cc", "1001", 2); // "cc-1001-refund-2"
 */
export function refundOrderId(prefix: string, invoiceNumber: string, n: number): string {
  const base = `${prefix}-${invoiceNumber}-refund`;
  return n === 1 ? base : `${base}-${n}`;
}

/**
 * The refund attempt number of a refund orderId (1 for `…-refund`), or null for other ids.
 *
 * @example
 * refundNumber("cc-1001-refund-2"); // 2
 */
export function refundNumber(orderId: string): number | null {
  const m = REFUND_SUFFIX.exec(orderId);
  return m ? Number(m[1] ?? 1) : null;
}

/** True for orderIds reserved for refunds (`…-refund`, `…-refund-<n>`). */
export const isRefundOrderId = (orderId: string) => REFUND_SUFFIX.test(orderId);
