/**
 * @module
 * Refund orderIds and how a refund's payout reports back to its order.
 *
 * Refund attempts are numbered like invoice attempts: `<prefix>-<invoiceNumber>-refund`, then
 * `-refund-2`, `-refund-3`, … A new number starts only when the previous refund's withdrawal
 * ended `failed` or `cancelled` (the service backs at most one withdrawal per orderId, so a
 * failed refund could never be paid again under its own orderId). Merchant payouts may not use
 * orderIds of this shape (`isRefundOrderId`), so the two never share a payout object.
 */
import type { PayoutView } from "../api/contract.ts";
import { stubForInvoiceNumber } from "../checkout/order-stub.ts";
import type { Env } from "../config/env.ts";
import type { Outcome } from "../outcome/outcome.ts";

const REFUND_SUFFIX = /-refund(?:-([1-9]\d*))?$/;

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

/**
 * Tells the order a refund's committed withdrawal and its status (idempotent on the order side).
 * Does nothing for a payout that is not a committed refund.
 *
 * @example
 * await reportRefund(env, config.CHECKOUT_SIGNING_SECRET, payoutView(row));
 */
export async function reportRefund(
  env: Env,
  secret: string,
  p: Pick<
    PayoutView,
    | "orderId"
    | "kind"
    | "invoiceNumber"
    | "cryptoCurrencyCode"
    | "address"
    | "amount"
    | "status"
    | "withdrawal"
  >,
): Promise<Outcome<{ changed: boolean }> | null> {
  if (
    p.kind !== "refund" ||
    !p.invoiceNumber ||
    !p.withdrawal ||
    p.status === "quoted" ||
    p.status === "uncertain"
  )
    return null;
  const { stub } = await stubForInvoiceNumber(env, p.invoiceNumber, secret);
  return stub.recordRefund({
    orderId: p.orderId,
    number: refundNumber(p.orderId) ?? 1,
    cryptoCurrencyCode: p.cryptoCurrencyCode,
    address: p.address,
    amount: p.amount,
    status: p.status,
    withdrawalId: p.withdrawal.id,
  });
}
