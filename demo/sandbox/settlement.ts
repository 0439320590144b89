/**
 * @module settlement
 * How a received crypto amount is settled: commission (the currency's depositCommission,
 * rounded UP to its decimal places), the deposit network fee, and the net amount credited,
 * with netAmount = amountPaid − depositNetworkFeeAmount − commissionAmount exactly.
 */
import { type CryptoCurrency, cryptoCurrency } from "./currencies.ts";
import { Dec, type Decimal } from "./decimal.ts";
import { convertCrypto, cryptoToUsd } from "./rates.ts";
import type { Settlement } from "./state.ts";

/**
 * Settles `amountPaid` of currency `cur`. The deposit network fee is capped at what is left
 * after commission, so the net amount is never negative and the identity above always holds.
 * @example
 * settle(usdtTrc20, new Dec("100"), "abc…", now).netAmount.toFixed(); // "98.25" (100 − 1 − 0.75)
 */
export function settle(
  cur: CryptoCurrency,
  amountPaid: Decimal,
  txHash: string | null,
  completedAt: string,
): Settlement {
  const commissionAmount = amountPaid.times(cur.depositCommission).round(cur.decimalPlaces, 3);
  const afterCommission = amountPaid.minus(commissionAmount);
  const fee = new Dec(cur.depositNetworkFee ?? "0");
  const depositNetworkFeeAmount = fee.gt(afterCommission) ? afterCommission : fee;
  const netAmount = afterCommission.minus(depositNetworkFeeAmount);
  const baseDp = cryptoCurrency(cur.baseCoin)?.decimalPlaces ?? cur.decimalPlaces;
  const networkFeeAmount =
    cur.code === cur.baseCoin
      ? depositNetworkFeeAmount
      : convertCrypto(depositNetworkFeeAmount, cur.code, cur.baseCoin, baseDp);
  return {
    amountPaid,
    commissionAmount,
    networkFeeAmount,
    networkFeeCurrencyCode: cur.baseCoin,
    depositNetworkFeeAmount,
    netAmount,
    amountPaidUsd: cryptoToUsd(amountPaid, cur.code),
    commissionAmountUsd: cryptoToUsd(commissionAmount, cur.code),
    netAmountUsd: cryptoToUsd(netAmount, cur.code),
    txHash,
    completedAt,
  };
}
