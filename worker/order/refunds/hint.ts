/**
 * @module
 * Whether the money an attempt received beyond what it owes could be sent back, so the widget
 * asks for a refund address only when a refund can really be paid (and says what happens
 * otherwise).
 *
 * A refund is a payout: the service refuses one below the currency's `minWithdrawalAmount`, and
 * the payout's network fee comes on top. The public API quotes that fee only for a given
 * address and amount (`POST /withdrawal/quote`), so before there is an address the worker uses
 * the one per-currency network fee the service publishes, `depositNetworkFee`, as its estimate
 * (none published: 0). The merchant's refund call still quotes the real fee.
 *
 * Invariant: exact decimal arithmetic only (`worker/lib/money`).
 */
import type {
  CryptoCurrency,
  PaymentInstructions,
} from "../../../packages/contract/src/http-api.ts";
import { add, cmp, isPositive, sub } from "../../lib/money/decimal.ts";

/** The currency as stored with an attempt: the service's entry, with its fee when it sent one. */
type StoredCurrency = Pick<CryptoCurrency, "minWithdrawalAmount"> & {
  depositNetworkFee?: { amount: string } | null;
};

/**
 * The refund hint of an attempt: `excess` is `received − expected` once the attempt received
 * more than expected, else everything received (a partial payment is refunded whole).
 *
 * @example
 * refundHint({ minWithdrawalAmount: "10", depositNetworkFee: { amount: "1" } }, "49.9", "50.4");
 * // { excess: "0.5", minimum: "11", possible: false }
 */
export function refundHint(
  currency: StoredCurrency,
  expected: string,
  received: string,
): PaymentInstructions["refund"] {
  const excess = cmp(received, expected) > 0 ? sub(received, expected) : received;
  const fee = currency.depositNetworkFee?.amount ?? "0";
  const minimum = add(currency.minWithdrawalAmount, fee);
  return { excess, minimum, possible: isPositive(excess) && cmp(excess, minimum) >= 0 };
}
