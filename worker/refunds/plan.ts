/**
 * @module
 * What a refund of an order pays back, computed exactly from the order's ledger, in the crypto
 * currency of the shopper's refund address (a refund returns the crypto actually received, never
 * a conversion):
 * - a `paid` order: the excess `cryptoReceived − cryptoExpected` of its `overpaid` attempts (the
 *   order stays paid);
 * - a `partially_paid` order: all crypto received on its settled attempts, but only once no
 *   attempt is open: every attempt ended (expired/failed/cancelled, or `partially_paid` whose
 *   invoice ended). Otherwise the shopper could still pay the rest after the refund and the
 *   order would count as paid with money already returned (409 `attempt_open`);
 * - minus every live (not failed/cancelled) refund already made in that currency, so a refund
 *   never exceeds what was received net of earlier refunds.
 */

import type { InvoiceStatus, WithdrawalStatus } from "../api/contract.ts";
import { add, cmp, isPositive, sub } from "../money/decimal.ts";
import { failure, type Outcome, success } from "../outcome/outcome.ts";
import type { RefundReason } from "./records.ts";

/**
 * What a refund reads of its order, and nothing more (the order builds it in
 * `order/refund-facts.ts`; the merchant's whole ledger is never read for a refund).
 */
export interface RefundFacts {
  /** The order's state with its refunds (`paid`, `partially_paid`, …). */
  state: string;
  refundAddress: { cryptoCurrencyCode: string; address: string } | null;
  attempts: readonly {
    number: number;
    /** The service's status of the attempt's invoice. */
    status: InvoiceStatus;
    /** True while the shopper may still pay into the attempt (the order's status rules). */
    open: boolean;
    cryptoCurrencyCode: string | null;
    cryptoExpected: string | null;
    cryptoReceived: string;
  }[];
  refunds: readonly {
    orderId: string;
    cryptoCurrencyCode: string;
    amount: string;
    status: WithdrawalStatus;
  }[];
}

/** A refund to pay. */
export interface RefundPlan {
  cryptoCurrencyCode: string;
  address: string;
  /** Largest refundable amount (what is refunded when the merchant names no amount). */
  refundable: string;
  reason: RefundReason;
}

/**
 * The refund an order allows, or 409 `refund_address_missing` / `attempt_open` /
 * `nothing_to_refund`.
 *
 * @example
 * refundPlan({ state: "paid", refundAddress: { cryptoCurrencyCode: "USDT_TRC20", address: "T…" },
 *   attempts: [{ number: 1, status: "overpaid", open: false, cryptoCurrencyCode: "USDT_TRC20",
 *     cryptoExpected: "49.9", cryptoReceived: "64.9" }], refunds: [] });
 * // success({ cryptoCurrencyCode: "USDT_TRC20", address: "T…", refundable: "15", reason: "overpaid" })
 */
export function refundPlan(order: RefundFacts): Outcome<RefundPlan> {
  const to = order.refundAddress;
  if (!to) {
    return failure(
      409,
      "refund_address_missing",
      "The shopper has not left a refund address for this order.",
    );
  }
  const partial = order.state === "partially_paid";
  const open = partial ? order.attempts.find((a) => a.open) : undefined;
  if (open) {
    return failure(
      409,
      "attempt_open",
      `Payment attempt ${open.number} is still ${open.status.replace("_", " ")} and the shopper may still pay the rest; a partial payment can be refunded only after the attempt ended (expired, failed or cancelled).`,
    );
  }
  const code = to.cryptoCurrencyCode;
  let received = "0";
  let otherCurrency: string | null = null;
  for (const a of order.attempts) {
    const amount =
      order.state === "paid"
        ? a.status === "overpaid" && a.cryptoExpected !== null
          ? sub(a.cryptoReceived, a.cryptoExpected)
          : "0"
        : partial && isPositive(a.cryptoReceived)
          ? a.cryptoReceived
          : "0";
    if (!isPositive(amount)) continue;
    if (a.cryptoCurrencyCode !== code) {
      otherCurrency ??= a.cryptoCurrencyCode;
      continue;
    }
    received = add(received, amount);
  }
  const refunded = order.refunds
    .filter(
      (r) => r.cryptoCurrencyCode === code && r.status !== "failed" && r.status !== "cancelled",
    )
    .reduce((sum, r) => add(sum, r.amount), "0");
  const refundable = cmp(received, refunded) > 0 ? sub(received, refunded) : "0";
  if (!isPositive(refundable)) {
    const why = isPositive(refunded)
      ? `${refunded} ${code} was already refunded`
      : otherCurrency
        ? `the money to refund was paid in ${otherCurrency}, but the refund address is for ${code}`
        : "the order is neither overpaid nor partially paid";
    return failure(409, "nothing_to_refund", `Nothing to refund: ${why}.`);
  }
  return success({
    cryptoCurrencyCode: code,
    address: to.address,
    refundable,
    reason: order.state === "paid" ? "overpaid" : "partially_paid",
  });
}
