/**
 * @module
 * Payout amount rules, checked before anything is sent: a plain decimal string, within the
 * currency's `decimalPlaces`, at least its `minWithdrawalAmount` (both from the live list).
 */
import type { CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { ApiError } from "../lib/api-error.ts";
import {
  cmp,
  fitsDecimalPlaces,
  isDecimalString,
  isPositive,
  toDecimal,
} from "../lib/money/decimal.ts";

/**
 * Returns the canonical amount, or throws 400 `validation_failed` (not a decimal string),
 * `amount_invalid_decimals` or `amount_below_minimum`.
 *
 * @example
 * checkPayoutAmount(usdtTrc20, "25.50"); // "25.5"
 * checkPayoutAmount(usdtTrc20, "1"); // throws 400 amount_below_minimum (minimum 10)
 */
export function checkPayoutAmount(currency: CryptoCurrency, amount: string): string {
  if (!isDecimalString(amount) || !isPositive(amount)) {
    throw new ApiError(
      400,
      "validation_failed",
      'amount must be a positive decimal string such as "25.50".',
    );
  }
  if (!fitsDecimalPlaces(amount, currency.decimalPlaces)) {
    throw new ApiError(
      400,
      "amount_invalid_decimals",
      `${currency.code} amounts have at most ${currency.decimalPlaces} decimal places.`,
    );
  }
  if (cmp(amount, currency.minWithdrawalAmount) < 0) {
    throw new ApiError(
      400,
      "amount_below_minimum",
      `The minimum ${currency.code} payout is ${currency.minWithdrawalAmount}.`,
    );
  }
  return toDecimal(amount);
}
