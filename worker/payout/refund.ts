/**
 * @module
 * What a refund of an order pays back, computed exactly from the order's ledger:
 * - an `overpaid` attempt: the excess, `cryptoReceived − cryptoExpected`;
 * - while the order is `partially_paid` (not yet paid in full): all crypto received on its
 *   `partially_paid` attempts.
 * Only attempts paid in the currency of the shopper's refund address count (a refund is paid in
 * the currency that was received). The upstream orderId is `<prefix>-<invoiceNumber>-refund`,
 * so an order has at most one refund withdrawal.
 */
import { add, cmp, isPositive, sub } from "../money/decimal.ts";
import { failure, type Outcome, success } from "../order/outcome.ts";

/** The parts of the order ledger a refund reads. */
export interface RefundLedger {
  state: string;
  refundAddress: { cryptoCurrencyCode: string; address: string } | null;
  attempts: readonly {
    status: string;
    cryptoCurrencyCode: string | null;
    cryptoExpected: string | null;
    cryptoReceived: string;
  }[];
}

/** A refund to pay. */
export interface RefundPlan {
  cryptoCurrencyCode: string;
  address: string;
  /** Largest refundable amount (what is refunded when the merchant names no amount). */
  refundable: string;
  reason: "overpaid" | "partially_paid";
}

/**
 * The refund an order allows, or 409 `refund_address_missing` / `nothing_to_refund`.
 *
 * @example
 * refundPlan({ state: "paid", refundAddress: { cryptoCurrencyCode: "USDT_TRC20", address: "T…" },
 *   attempts: [{ status: "overpaid", cryptoCurrencyCode: "USDT_TRC20", cryptoExpected: "49.9", cryptoReceived: "64.9" }] });
 * // success({ cryptoCurrencyCode: "USDT_TRC20", address: "T…", refundable: "15", reason: "overpaid" })
 */
export function refundPlan(ledger: RefundLedger): Outcome<RefundPlan> {
  const to = ledger.refundAddress;
  if (!to) {
    return failure(
      409,
      "refund_address_missing",
      "The shopper has not left a refund address for this order.",
    );
  }
  const code = to.cryptoCurrencyCode;
  let excess = "0";
  let partial = "0";
  let otherCurrency: string | null = null;
  for (const a of ledger.attempts) {
    const overpaid =
      a.status === "overpaid" &&
      a.cryptoExpected !== null &&
      cmp(a.cryptoReceived, a.cryptoExpected) > 0;
    const part =
      a.status === "partially_paid" &&
      ledger.state === "partially_paid" &&
      isPositive(a.cryptoReceived);
    if (!overpaid && !part) continue;
    if (a.cryptoCurrencyCode !== code) {
      otherCurrency ??= a.cryptoCurrencyCode;
      continue;
    }
    if (overpaid) excess = add(excess, sub(a.cryptoReceived, a.cryptoExpected!));
    else partial = add(partial, a.cryptoReceived);
  }
  const refundable = add(excess, partial);
  if (!isPositive(refundable)) {
    const why = otherCurrency
      ? `the money to refund was paid in ${otherCurrency}, but the refund address is for ${code}`
      : "the order is neither overpaid nor partially paid";
    return failure(409, "nothing_to_refund", `Nothing to refund: ${why}.`);
  }
  return success({
    cryptoCurrencyCode: code,
    address: to.address,
    refundable,
    reason: isPositive(excess) ? "overpaid" : "partially_paid",
  });
}
