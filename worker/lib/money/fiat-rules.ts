/**
 * @module
 * The token's amount against the live fiat list: a known currency, no more decimals than it
 * allows, not below its minimum invoice amount. Checked before any upstream invoice is made.
 */
import type { FiatCurrency } from "../../../packages/contract/src/http-api.ts";
import { ApiError } from "../api-error.ts";
import { cmp, fitsDecimalPlaces } from "./decimal.ts";

/**
 * Returns the fiat entry for `currency`, or throws a 400 that says what is wrong.
 *
 * @example
 * const fiat = checkFiatAmount(await fiatCurrencies(config), "49.90", "USD");
 */
export function checkFiatAmount(
  list: readonly FiatCurrency[],
  amount: string,
  currency: string,
): FiatCurrency {
  const fiat = list.find((f) => f.code === currency);
  if (!fiat) {
    throw new ApiError(
      400,
      "unknown_currency",
      `${currency} is not a currency this merchant can invoice in.`,
    );
  }
  if (!fitsDecimalPlaces(amount, fiat.decimalPlaces)) {
    throw new ApiError(
      400,
      "amount_invalid_decimals",
      `${amount} ${currency} has more than ${fiat.decimalPlaces} decimal places.`,
    );
  }
  if (cmp(amount, fiat.minInvoiceAmount) < 0) {
    throw new ApiError(
      400,
      "amount_below_minimum",
      `The minimum amount is ${fiat.minInvoiceAmount} ${currency}.`,
    );
  }
  return fiat;
}
