/**
 * @module
 * What a refund of an order pays back, computed exactly from the order's ledger, in the crypto
 * currency of the shopper's refund address (a refund returns the crypto actually received, never
 * a conversion):
 * - a `paid` order: the excess `cryptoReceived − cryptoExpected` of its `overpaid` attempts, plus
 *   what attempts together paid beyond the order's amount (late money on an ended attempt after
 *   the next one paid the rest): that fiat excess is returned as crypto those attempts received,
 *   at each attempt's own rate (`cryptoExpected ÷ fiatAmount`), latest attempt first, rounded
 *   down to the currency's places, so the order stays paid after the refund;
 * - a `partially_paid` order: all crypto received on its settled attempts, but only once no
 *   attempt is open: every attempt ended (expired/failed/cancelled, or `partially_paid` whose
 *   invoice ended). Otherwise the shopper could still pay the rest after the refund and the
 *   order would count as paid with money already returned (409 `attempt_open`);
 * - minus every live (not failed/cancelled) refund already made in that currency, so a refund
 *   never exceeds what was received net of earlier refunds.
 */

import type { InvoiceStatus, WithdrawalStatus } from "../../../packages/contract/src/http-api.ts";
import { add, cmp, div, isPositive, min, mul, sub } from "../../lib/money/decimal.ts";
import { failure, type Outcome, success } from "../../lib/outcome/outcome.ts";
import type { RefundReason } from "./records.ts";

/**
 * What a refund reads of its order, and nothing more (the order builds it in
 * `order/refund-facts.ts`; the merchant's whole ledger is never read for a refund).
 */
export interface RefundFacts {
  /** The order's state with its refunds (`paid`, `partially_paid`, …). */
  state: string;
  /** The order's fiat amount; without it nothing paid beyond it across attempts is refunded. */
  amount?: string;
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
    /** The attempt's fiat amount and the fiat its payments counted for (the ledger's). */
    fiatAmount?: string;
    fiatApplied?: string;
    /** The attempt currency's decimal places (null when its catalogue entry is unknown). */
    decimalPlaces?: number | null;
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
  if (order.state === "paid") {
    const beyond = beyondAmount(order, code);
    received = add(received, beyond.crypto);
    otherCurrency ??= beyond.otherCurrency;
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

/**
 * The crypto in `code` worth what the order's attempts paid beyond its amount, at each
 * attempt's own rate, latest attempt first, each share rounded down to the currency's places.
 * Its fiat value never exceeds that excess, so refunding it leaves the order paid.
 */
function beyondAmount(
  order: RefundFacts,
  code: string,
): { crypto: string; otherCurrency: string | null } {
  if (!order.amount) return { crypto: "0", otherCurrency: null };
  const paid = order.attempts.reduce((sum, a) => add(sum, a.fiatApplied ?? "0"), "0");
  let left = cmp(paid, order.amount) > 0 ? sub(paid, order.amount) : "0";
  let crypto = "0";
  let otherCurrency: string | null = null;
  for (const a of [...order.attempts].reverse()) {
    if (!isPositive(left)) break;
    const { fiatAmount, fiatApplied, cryptoExpected, decimalPlaces } = a;
    if (!fiatApplied || !isPositive(fiatApplied)) continue;
    if (a.cryptoCurrencyCode !== code) {
      otherCurrency ??= a.cryptoCurrencyCode;
      continue;
    }
    if (!fiatAmount || !cryptoExpected || decimalPlaces == null || !isPositive(cryptoExpected))
      continue;
    const share = min(left, fiatApplied);
    crypto = add(crypto, div(mul(share, cryptoExpected), fiatAmount, decimalPlaces, "down"));
    left = sub(left, share);
  }
  return { crypto, otherCurrency };
}
