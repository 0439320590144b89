/**
 * @module
 * Builds the `DepositSnapshot` the widget sees from the top-up's row. Pure: the same row gives
 * the same snapshot, so the event log can replay it verbatim.
 */
import type { DepositSnapshot } from "../../packages/contract/src/http-api.ts";
import { mul } from "../lib/money/decimal.ts";
import { networkLabel } from "../lib/wallet/networks.ts";
import { walletUri } from "../lib/wallet/wallet-uri.ts";
import { settlementView } from "./settlement.ts";
import { FINAL_DEPOSIT } from "./status.ts";
import type { DepositRow } from "./store.ts";

/** What the snapshot needs beyond the row. */
export interface DepositSnapshotContext {
  displayName: string;
  sandbox: boolean;
  seq: number;
  now: string;
}

/** A wallet link without amount; an address the link builder refuses gets none (copy and QR). */
function depositUri(row: DepositRow, sandbox: boolean): string | null {
  try {
    return walletUri({ currency: row.currency, address: row.address, amount: "0", sandbox });
  } catch {
    return null;
  }
}

/**
 * The snapshot of a top-up.
 *
 * @example
 * const snap = buildDepositSnapshot(row, { displayName: "Shop", sandbox: true, seq: 1, now });
 * snap.depositCommissionPercent; // "0.5" for a commission of "0.005"
 */
export function buildDepositSnapshot(
  row: DepositRow,
  ctx: DepositSnapshotContext,
): DepositSnapshot {
  const { currency } = row;
  return {
    id: row.checkoutId,
    kind: "deposit",
    topUpId: row.topUpId,
    displayName: ctx.displayName,
    sandbox: ctx.sandbox,
    cryptoCurrencyCode: currency.code,
    currencyName: currency.name,
    network: currency.network,
    networkName: networkLabel(currency.network),
    decimalPlaces: currency.decimalPlaces,
    address: row.address,
    minimumAmount: row.minimumAmount,
    minDepositAmount: currency.minDepositAmount,
    depositCommission: currency.depositCommission,
    depositCommissionPercent: mul(currency.depositCommission, "100"),
    depositNetworkFee: currency.depositNetworkFee,
    walletUri: depositUri(row, ctx.sandbox),
    expiresAt: row.expiresAt,
    status: row.status,
    settlement: row.settlement ? settlementView(row.settlement) : null,
    final: FINAL_DEPOSIT.has(row.status),
    seq: ctx.seq,
    updatedAt: ctx.now,
  };
}
