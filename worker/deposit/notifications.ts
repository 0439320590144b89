/**
 * @module
 * Merchant notifications of a top-up: every status change (`deposit.status_changed`), and the
 * completion with exact amounts (`deposit.completed`: received, network fee, commission, net).
 *
 * Invariant: `deposit.completed` goes out exactly once, on the first applied state that is
 * `completed` *and* carries a settlement. A completed deposit read back before the service
 * settled it waits (no notification with null amounts); the later state that brings the
 * settlement sends it.
 */

import type { DepositStatus } from "../../packages/contract/src/http-api.ts";
import { type Notification, notification } from "../core/events/outbox.ts";
import { settlementView } from "./settlement.ts";
import type { DepositRow } from "./store.ts";

/**
 * What one applied deposit state tells the merchant.
 *
 * @example
 * depositNotifications(row, { status: "processing", settlement: null }, now).map((n) => n.type);
 * // ["deposit.status_changed", "deposit.completed"] when row is completed with a settlement
 */
export function depositNotifications(
  row: DepositRow,
  previous: Pick<DepositRow, "status" | "settlement">,
  now: string,
): Notification[] {
  const previousStatus: DepositStatus = previous.status;
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
    out.push(notification(type, now, { ...base, ...data }));
  if (row.status !== previousStatus) note("deposit.status_changed", { previousStatus });
  const wasReported = previousStatus === "completed" && previous.settlement !== null;
  if (row.status === "completed" && row.settlement && !wasReported) {
    const s = settlementView(row.settlement);
    note("deposit.completed", {
      amount: s.received,
      networkFee: s.networkFee,
      commission: s.commission,
      net: s.net,
      depositCommission: row.currency.depositCommission,
      settlementSource: s.source,
      txHash: row.settlement.txHash ?? null,
    });
  }
  return out;
}
