/**
 * @module
 * One orderId, one payout: the same orderId always carries the same parameters (currency,
 * address, amount), whether the merchant asks again or the service answers with a quote or a
 * withdrawal it holds for that orderId; anything else is 409 `checkout_conflict`.
 */
import { cmp } from "../lib/money/decimal.ts";
import { failure, type Outcome } from "../lib/outcome/outcome.ts";
import type { PayoutRow } from "./store.ts";

/** The parameters a payout is compared by. */
type Params = { cryptoCurrencyCode: string; address: string; amount: string };

/**
 * True when an upstream object (or a request) describes exactly the payout that was asked for;
 * amounts compare as exact decimals.
 *
 * @example
 * sameParams(row, { cryptoCurrencyCode: "TRX", address: row.address, amount: "40.0" }); // row.amount "40"
 */
export function sameParams(a: Params, b: Params): boolean {
  return (
    a.cryptoCurrencyCode === b.cryptoCurrencyCode &&
    a.address === b.address &&
    cmp(a.amount, b.amount) === 0
  );
}

/**
 * The 409 for an orderId asked (or found upstream) with other details than `row` holds.
 *
 * @example
 * if (!sameParams(withdrawal, row)) return conflict(row, row.orderId);
 */
export function conflict(row: PayoutRow | null, orderId: string): Outcome<never> {
  const what = row ? `${row.amount} ${row.cryptoCurrencyCode} to ${row.address}` : "other details";
  const hint =
    row?.kind === "refund" ? "an order has one refund." : "use a new orderId for another payout.";
  return failure(409, "checkout_conflict", `${orderId} was already requested as ${what}; ${hint}`);
}
