/**
 * @module settlement
 * How a received crypto amount is settled: commission (the tenant's depositCommission, rounded
 * UP to the currency's decimal places), the deposit network fee, and the net amount credited,
 * with netAmount = amountPaid − depositNetworkFeeAmount − commissionAmount exactly; and the
 * settlement object as the service sends it (SDK `SettlementBreakdown`).
 *
 * Each `…Usd` field is its own crypto amount × the sandbox's USD rate of that amount's coin,
 * exact decimals rounded half-up to cents: four roundings, so the USD fields may miss the
 * identity above by a cent (the service publishes no USD rule; the crypto identity is exact).
 */
import { type CryptoCurrency, cryptoCurrency, TENANT_DEPOSIT_COMMISSION } from "./currencies.ts";
import { Dec, type Decimal } from "./decimal.ts";
import { convertCrypto, cryptoToUsd } from "./rates.ts";
import type { Settlement } from "./state.ts";

/**
 * Settles `amountPaid` of currency `cur`. The deposit network fee is capped at what is left
 * after commission, so the net amount is never negative and the identity above always holds.
 * @example
 * settle(usdtTrc20, new Dec("100"), "abc…", now).netAmount.toFixed(); // "98.5" (100 − 1 − 0.5)
 */
export function settle(
  cur: CryptoCurrency,
  amountPaid: Decimal,
  txHash: string | null,
  completedAt: string,
): Settlement {
  const commissionAmount = amountPaid.times(TENANT_DEPOSIT_COMMISSION).round(cur.decimalPlaces, 3);
  const afterCommission = amountPaid.minus(commissionAmount);
  const fee = new Dec(cur.depositNetworkFee ?? "0");
  const depositNetworkFeeAmount = fee.gt(afterCommission) ? afterCommission : fee;
  const netAmount = afterCommission.minus(depositNetworkFeeAmount);
  const baseDp = cryptoCurrency(cur.baseCoin)?.decimalPlaces ?? cur.decimalPlaces;
  const networkFeeAmount =
    cur.code === cur.baseCoin
      ? depositNetworkFeeAmount
      : convertCrypto(depositNetworkFeeAmount, cur.code, cur.baseCoin, baseDp);
  const usd = (amount: Decimal) => cryptoToUsd(amount, cur.code);
  return {
    amountPaid,
    amountPaidUsd: usd(amountPaid),
    commissionAmount,
    commissionAmountUsd: usd(commissionAmount),
    networkFeeAmount,
    networkFeeAmountUsd: cryptoToUsd(networkFeeAmount, cur.baseCoin),
    networkFeeCurrencyCode: cur.baseCoin,
    depositNetworkFeeAmount,
    depositNetworkFeeAmountUsd: usd(depositNetworkFeeAmount),
    netAmount,
    netAmountUsd: usd(netAmount),
    txHash,
    completedAt,
  };
}

/**
 * The settlement as the service sends it: every field of the record, `txHash` only once known
 * (the SDK types it optional: absent, never null).
 * @example
 * settlementView(s).netAmountUsd; // Dec("98.5"), and no txHash member while it is null
 */
export function settlementView(s: Settlement) {
  const { txHash, ...rest } = s;
  return txHash === null ? rest : { ...rest, txHash };
}
