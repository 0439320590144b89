/**
 * @module
 * The refunds an order knows of (table `refunds`): one row per refund withdrawal orderId
 * (`<prefix>-<n>-refund`, `-refund-2`, …), written when the refund is committed and on every
 * later status change of its withdrawal.
 *
 * Invariants:
 * - writing the same refund again is harmless: the row is keyed by orderId and its status only
 *   moves forward (`created` → `processing` → `completed` | `failed` | `cancelled`);
 * - a refund is *live* unless its withdrawal ended `failed` or `cancelled` (then no money left
 *   the balance for the shopper, and a new refund attempt may start);
 * - a partially paid order with a live refund is closed: the shopper can no longer pay into it
 *   (the money already received is on its way back), so its state is `refunded`.
 */
import type { OrderState, RefundView, WithdrawalStatus } from "../api/contract.ts";

/** What the payout side reports about one committed refund. */
export interface RefundRecord {
  orderId: string;
  /** 1 for `…-refund`, n for `…-refund-<n>`. */
  number: number;
  cryptoCurrencyCode: string;
  /** Canonical decimal string: what the shopper is paid. */
  amount: string;
  status: WithdrawalStatus;
  withdrawalId: string | null;
}

const RANK: Record<WithdrawalStatus, number> = {
  created: 1,
  processing: 2,
  completed: 3,
  failed: 3,
  cancelled: 3,
};

/** Whether a refund's withdrawal still sends (or sent) money to the shopper. */
export const isLive = (r: { status: WithdrawalStatus }) =>
  r.status !== "failed" && r.status !== "cancelled";

type Row = Record<string, SqlStorageValue>;

/**
 * Every refund of the order, oldest first.
 *
 * @example
 * readRefunds(ctx.storage.sql).filter(isLive);
 */
export function readRefunds(sql: SqlStorage): RefundRecord[] {
  return sql
    .exec<Row>("SELECT * FROM refunds ORDER BY number")
    .toArray()
    .map((r) => ({
      orderId: String(r.order_id),
      number: Number(r.number),
      cryptoCurrencyCode: String(r.crypto_code),
      amount: String(r.amount),
      status: String(r.status) as WithdrawalStatus,
      withdrawalId: r.withdrawal_id === null ? null : String(r.withdrawal_id),
    }));
}

/**
 * Inserts the refund or moves its status forward; returns true when something changed.
 * A final status is never replaced (withdrawal webhooks arrive duplicated and out of order).
 *
 * @example
 * writeRefund(sql, { orderId: "cc-1001-refund", number: 1, cryptoCurrencyCode: "USDT_TRC20",
 *   amount: "15", status: "created", withdrawalId: "wd_1" }, now); // true, then false
 */
export function writeRefund(sql: SqlStorage, r: RefundRecord, now: string): boolean {
  const existing = readRefunds(sql).find((x) => x.orderId === r.orderId);
  if (existing) {
    const forward = RANK[r.status] > RANK[existing.status] && RANK[existing.status] < 3;
    if (!forward) return false;
  }
  sql.exec(
    `INSERT OR REPLACE INTO refunds (order_id, number, crypto_code, amount, status, withdrawal_id,
      updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    r.orderId,
    r.number,
    r.cryptoCurrencyCode,
    existing?.amount ?? r.amount,
    r.status,
    r.withdrawalId ?? existing?.withdrawalId ?? null,
    now,
  );
  return true;
}

/**
 * The order state once refunds are known: a not fully paid order with a live refund is
 * `refunded` (closed); a paid order stays `paid` (only its excess was refunded).
 *
 * @example
 * stateWithRefunds("partially_paid", [{ status: "created", … }]); // "refunded"
 */
export function stateWithRefunds(
  paymentState: OrderState,
  refunds: readonly RefundRecord[],
): OrderState {
  if (paymentState === "paid") return "paid";
  return refunds.some(isLive) ? "refunded" : paymentState;
}

/** The refunds as the snapshot and the ledger show them. */
export function refundViews(refunds: readonly RefundRecord[]): RefundView[] {
  return refunds.map(({ orderId, cryptoCurrencyCode, amount, status }) => ({
    orderId,
    cryptoCurrencyCode,
    amount,
    status,
  }));
}
