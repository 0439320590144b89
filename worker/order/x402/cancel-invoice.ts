/**
 * @module
 * Once a wallet payment paid the order, its open invoice at the service is cancelled, so the
 * shopper cannot also pay it by mistake (a second payment would be an overpayment the merchant
 * refunds). Only an invoice nothing was paid to (`created`, not ended) is cancelled: one with
 * money on the way stays, and whatever it receives is applied as an overpayment. The service's
 * `invoice.statusChanged` (cancelled) is applied as any read; a failed cancel is logged, and
 * the invoice then simply expires.
 */
import { upstreamFor, WEBHOOK_REFETCH } from "../../core/config/upstream.ts";
import { UpstreamError } from "../../service/errors.ts";
import type { OrderHost } from "../order-host.ts";

/**
 * Cancels the order's open unpaid invoice (inside the lane), when the order is paid.
 *
 * @example
 * await host.lane(() => cancelOpenInvoice(host));
 */
export async function cancelOpenInvoice(host: OrderHost): Promise<void> {
  const attempt = host.store.currentAttempt();
  if (!attempt || attempt.ended || attempt.status !== "created") return;
  // Asked once per invoice: until the service's `cancelled` arrives, the attempt still reads
  // `created`, and a later step (a duplicate webhook, a settlement read) must not ask again.
  const asked = `x402.cancelled:${attempt.invoiceId}`;
  if (host.kv.get(asked) !== undefined) return;
  if (host.journal.current().orderState !== "paid") return;
  try {
    await upstreamFor(host.config(), WEBHOOK_REFETCH).cancelInvoice({ id: attempt.invoiceId });
    host.kv.put(asked, Date.now());
    host.logger().debug("x402.invoice_cancelled", { orderId: attempt.orderId });
  } catch (error) {
    if (error instanceof UpstreamError && error.code === "exceptions.invoice.cannotCancel") {
      // Already cancelled or no longer cancellable (money arrived): either way, done.
      host.kv.put(asked, Date.now());
      return;
    }
    host.logger().warn("x402.invoice_cancel_failed", {
      orderId: attempt.orderId,
      error: String(error),
    });
  }
}
