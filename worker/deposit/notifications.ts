/**
 * @module
 * Merchant notifications of a top-up: every status change (`deposit.status_changed`), and the
 * completion with exact amounts (`deposit.completed`: received, network fee, commission, net),
 * reported once because a completed deposit is final.
 */
import type { DepositStatus } from "../api/contract.ts";
import type { Notification } from "../events/outbox.ts";
import { settlementView } from "./settlement.ts";
import type { DepositRow } from "./store.ts";

/**
 * What one applied deposit state tells the merchant.
 *
 * @example
 * depositNotifications(row, "processing", now).map((n) => n.type); // ["deposit.status_changed", "deposit.completed"] when row is completed
 */
export function depositNotifications(
  row: DepositRow,
  previousStatus: DepositStatus,
  now: string,
): Notification[] {
  const base = {
    topUpId: row.topUpId,
    orderId: row.orderId,
    depositId: row.depositId,
    customerId: row.customerId,
    cryptoCurrencyCode: row.currency.code,
    status: row.status,
  };
  const out: Notification[] = [];
  const note = (type: Notification["type"], data: Record<string, unknown>) =>
    out.push({
      id: `evt_${crypto.randomUUID()}`,
      type,
      createdAt: now,
      data: { ...base, ...data },
    });
  if (row.status !== previousStatus) note("deposit.status_changed", { previousStatus });
  if (row.status === "completed" && previousStatus !== "completed") {
    const s = row.settlement ? settlementView(row.settlement) : null;
    note("deposit.completed", {
      amount: s?.received ?? null,
      networkFee: s?.networkFee ?? null,
      commission: s?.commission ?? null,
      net: s?.net ?? null,
      depositCommission: row.currency.depositCommission,
      settlementSource: s?.source ?? null,
      txHash: row.settlement?.txHash ?? null,
    });
  }
  return out;
}
