/**
 * @module
 * How a refund's payout reports back to its order: once committed, its withdrawal and status
 * (refund orderIds themselves are written and read in `lib/ids/upstream-order-id.ts`). Called by
 * the payout object on every change of a refund's withdrawal, and by `refund-order.ts` after
 * its commit and for a failure the order missed.
 */
import type { PayoutView } from "../../../packages/contract/src/http-api.ts";
import { refundNumber } from "../../lib/ids/upstream-order-id.ts";
import type { Outcome } from "../../lib/outcome/outcome.ts";
import type { OrdersBinding } from "../../order/order-rpc.ts";
import { orderStubForInvoiceNumber } from "../../order/order-stub.ts";

/**
 * Tells the order a refund's committed withdrawal and its status (idempotent on the order side).
 * Does nothing for a payout that is not a committed refund.
 *
 * @example
 * await reportRefund(env, config.CHECKOUT_SIGNING_SECRET, payoutView(row));
 */
export async function reportRefund(
  env: OrdersBinding,
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
  const { stub } = await orderStubForInvoiceNumber(env, p.invoiceNumber, secret);
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
