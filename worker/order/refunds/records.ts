/**
 * @module
 * The refunds an order knows of (table `refunds` of the order object): one row per refund
 * withdrawal orderId (`<prefix>-<n>-refund`, `-refund-2`, …), written when the refund is
 * committed and on every later status change of its withdrawal (`report.ts`).
 *
 * Invariants:
 * - writing the same refund again is harmless: the row is keyed by orderId and its status only
 *   moves forward (`created` → `processing` → `completed` | `failed` | `cancelled`);
 * - a refund keeps where the money went: its address, currency, amount and withdrawal id are
 *   set by its first report and never replaced by a later one;
 * - a refund is *live* unless its withdrawal ended `failed` or `cancelled` (then no money left
 *   the balance for the shopper, and a new refund attempt may start);
 * - a partially paid order with a live refund is closed: the shopper can no longer pay into it
 *   (the money already received is on its way back), so its state is `refunded`; it stays
 *   `refunded` even if money that was already on its way lands afterwards and reaches the
 *   amount (that money is applied, shown and notified, but the order is not `paid`: part of
 *   what it received went back).
 */

import type {
  OrderState,
  RefundView,
  WithdrawalStatus,
} from "../../../packages/contract/src/http-api.ts";
import { isFinalAtService, statusRank } from "../../core/converge/status-rank.ts";
import { columnAdded, type MigrationTrack } from "../../core/storage/migrations.ts";
import {
  decodeRow,
  integer,
  optionalText,
  primaryKey,
  type Row,
  Table,
  text,
} from "../../core/storage/table.ts";

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
  /** Where the refund was paid (the withdrawal's address); null only for rows older than it. */
  address: string | null;
  /**
   * Why the refund was made (from the hold; read only): `partially_paid` closes the order for
   * good, `overpaid` returns a paid order's excess. Null when unknown.
   */
  reason?: RefundReason | null;
}

/** What a refund pays back: a paid order's excess, or what a not fully paid order received. */
export type RefundReason = "overpaid" | "partially_paid";

/** Whether a refund's withdrawal still sends (or sent) money to the shopper. */
export const isLive = (r: { status: WithdrawalStatus }) =>
  r.status !== "failed" && r.status !== "cancelled";

/** A row of `refunds`: the record as stored (its `reason` is the hold's), and when it changed. */
type RefundRow = Omit<RefundRecord, "reason"> & { updatedAt: string };

/**
 * The order's `refunds` table, described once (`core/storage/table.ts`); `address` came last, added
 * to older objects by `REFUNDS_MIGRATIONS`.
 *
 * @example
 * sql.exec(REFUNDS.ddl);
 */
export const REFUNDS = new Table<RefundRow>("refunds", {
  orderId: primaryKey(text("order_id")),
  number: integer("number"),
  cryptoCurrencyCode: text("crypto_code"),
  amount: text("amount"),
  status: text<WithdrawalStatus>("status"),
  withdrawalId: optionalText("withdrawal_id"),
  updatedAt: text("updated_at"),
  address: optionalText("address"),
});

/**
 * Every refund of the order, oldest first.
 *
 * @example
 * readRefunds(ctx.storage.sql).filter(isLive);
 */
export function readRefunds(sql: SqlStorage): RefundRecord[] {
  return sql
    .exec<Row>(
      `SELECT r.*, h.reason AS reason FROM refunds r
        LEFT JOIN refund_hold h ON h.order_id = r.order_id ORDER BY r.number`,
    )
    .toArray()
    .map((r) => {
      const { updatedAt: _, ...record } = decodeRow(REFUNDS.columns, r);
      return { ...record, reason: r.reason === null ? null : (String(r.reason) as RefundReason) };
    });
}

/**
 * The order's live refund (at most one: a new refund starts only after the last one failed or
 * was cancelled), or null.
 *
 * @example
 * liveRefund(sql)?.orderId; // "cc-1001-refund-2"
 */
export function liveRefund(sql: SqlStorage): RefundRecord | null {
  return readRefunds(sql).find(isLive) ?? null;
}

/**
 * Inserts the refund or moves its status forward; returns true when something changed.
 * A final status is never replaced (withdrawal webhooks arrive duplicated and out of order).
 *
 * @example
 * writeRefund(sql, { orderId: "cc-1001-refund", number: 1, cryptoCurrencyCode: "USDT_TRC20",
 *   amount: "15", status: "created", withdrawalId: "wd_1", address: "T…" }, now); // true, then false
 */
export function writeRefund(sql: SqlStorage, r: RefundRecord, now: string): boolean {
  const existing = readRefunds(sql).find((x) => x.orderId === r.orderId);
  if (existing) {
    // Withdrawals move forward only (the one rank table); a final one is never replaced.
    const forward =
      statusRank("withdrawal", r.status) > statusRank("withdrawal", existing.status) &&
      !isFinalAtService("withdrawal", existing.status);
    if (!forward) return false;
  }
  REFUNDS.write(sql, "INSERT OR REPLACE", {
    orderId: r.orderId,
    number: r.number,
    cryptoCurrencyCode: existing?.cryptoCurrencyCode ?? r.cryptoCurrencyCode,
    amount: existing?.amount ?? r.amount,
    status: r.status,
    withdrawalId: existing?.withdrawalId ?? r.withdrawalId ?? null,
    updatedAt: now,
    address: existing?.address ?? r.address ?? null,
  });
  return true;
}

/**
 * The order state once refunds are known: a not fully paid order with a live refund is
 * `refunded` (closed); a paid order stays `paid` (only its excess was refunded), unless the
 * live refund returned a partial payment: money landing after that refund never makes the
 * order `paid`.
 *
 * @example
 * stateWithRefunds("partially_paid", [{ status: "created", … }]); // "refunded"
 * stateWithRefunds("paid", [{ status: "created", reason: "partially_paid", … }]); // "refunded"
 */
export function stateWithRefunds(
  paymentState: OrderState,
  refunds: readonly RefundRecord[],
): OrderState {
  const live = refunds.filter(isLive);
  if (live.some((r) => r.reason === "partially_paid")) return "refunded";
  if (paymentState === "paid") return "paid";
  return live.length > 0 ? "refunded" : paymentState;
}

/** The refunds as the shopper's snapshot shows them. */
export function refundViews(refunds: readonly RefundRecord[]): RefundView[] {
  // The view's shape is the API contract's: `reason` stays internal, and the service's
  // withdrawal id stays with the merchant (`refundLedgerViews`).
  return refunds.map(({ orderId, cryptoCurrencyCode, amount, address, status }) => ({
    orderId,
    cryptoCurrencyCode,
    amount,
    address,
    status,
  }));
}

/** The refunds as the merchant's ledger shows them: the view plus the withdrawal id. */
export function refundLedgerViews(refunds: readonly RefundRecord[]) {
  return refunds.map((r) => ({ ...refundViews([r])[0]!, withdrawalId: r.withdrawalId }));
}

/**
 * The `refunds` table's numbered migrations (`core/storage/migrations.ts`). Step 1 adds `address`
 * to a table made before refunds kept where the money went (existing rows: null).
 *
 * @example
 * migrate(sql, [REFUNDS_MIGRATIONS]);
 */
export const REFUNDS_MIGRATIONS: MigrationTrack = {
  track: "refunds",
  steps: [columnAdded(1, "refunds", "address", "TEXT", "where the refund was paid")],
};
