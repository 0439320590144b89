/**
 * @module
 * How a refund's payout reports back to its order: once committed, its withdrawal and status
 * (refund orderIds themselves are written and read in `lib/ids/upstream-order-id.ts`). Called by
 * the payout's steps on every change of a refund's withdrawal (`reportToOrder`), and by
 * `refund-order.ts` after its commit and for a failure the order missed.
 */
import type { PayoutView } from "../../../packages/contract/src/http-api.ts";
import { refundNumber } from "../../lib/ids/upstream-order-id.ts";
import type { Outcome } from "../../lib/outcome/outcome.ts";
import type { OrdersBinding } from "../../order/order-rpc.ts";
import { orderStubForInvoiceNumber } from "../../order/order-stub.ts";
import type { PayoutHost } from "../payout-host.ts";
import type { PayoutRow } from "../store.ts";
import { payoutView } from "../view.ts";

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

/**
 * Reports a payout's withdrawal to its order when it is a committed refund; false (and logged)
 * when the order did not answer, so the caller keeps the report due (a webhook answered 503, a
 * reconciliation read failed and read again).
 *
 * @example
 * if (!(await reportToOrder(host, row))) throw new Error("read again");
 */
export async function reportToOrder(host: PayoutHost, row: PayoutRow): Promise<boolean> {
  try {
    const answer = await reportRefund(
      host.env,
      host.config().CHECKOUT_SIGNING_SECRET,
      payoutView(row),
    );
    return answer === null || answer.ok;
  } catch (error) {
    host.logger().warn("payout.refund_report_failed", {
      orderId: row.orderId,
      error: error instanceof Error ? error.message : String(error),
    });
    return false;
  }
}
