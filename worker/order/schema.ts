/**
 * @module
 * SQLite schema of one order's Durable Object, created lazily by the object's schema (`core/events/object-schema.ts`):
 * by the call that opens the order, or on a later start when the object already has one (a
 * read of an unknown checkout creates no storage). Every table is described once, as columns,
 * by the module that owns it (`core/storage/table.ts`): this file only lists them. The DDL makes
 * the newest shape and is idempotent; older objects are brought to it by the numbered
 * migrations (`ORDER_MIGRATIONS`, run by `core/events/object-schema.ts` after the shared tracks).
 *
 * - `order_info`: the order itself (one row; `store.ts`);
 * - `attempts`: one row per upstream invoice (`<prefix>-<n>`, `-2`, `-3`, …; `store.ts`);
 * - `payments`: money applied to the order (append-only; `store.ts`);
 * - `refunds`: committed refund withdrawals (`<prefix>-<n>-refund`, `-refund-2`, …), one row per
 *   refund orderId, written idempotently by `order/refunds/records.ts`; status only moves forward; each
 *   keeps the address, currency, amount and withdrawal id it was paid with (`address` was added
 *   later: `REFUNDS_MIGRATIONS` step 1 adds the column to older objects);
 * - `x402_payments`: the order's x402 payments, one per authorization nonce
 *   (`order/x402/payments-table.ts`); `order_info.wallet_paid` holds the fiat the confirmed
 *   ones applied (`ORDER_INFO_MIGRATIONS` step 1 adds it to older objects);
 * - `refund_hold`: the order's refund in progress or made (one row): taken before quoting, so
 *   no new attempt or currency lock starts under a refund; released when that refund ends
 *   failed/cancelled or definitely never happened (`order/refunds/hold.ts`);
 * - plus the shared `events`, `deliveries`, `outbox` and `index_feed` tables
 *   (`core/events/event-log.ts`).
 */
import { EVENT_LOG_SCHEMA } from "../core/events/event-log.ts";
import type { MigrationTrack } from "../core/storage/migrations.ts";
import { REFUND_HOLD } from "./refunds/hold.ts";
import { REFUNDS, REFUNDS_MIGRATIONS } from "./refunds/records.ts";
import { ATTEMPTS, ORDER_INFO, ORDER_INFO_MIGRATIONS, PAYMENTS } from "./store.ts";
import { X402_PAYMENTS } from "./x402/payments-table.ts";

/** The order's tables (the newest shape; idempotent). */
export const ORDER_SCHEMA = [ORDER_INFO, ATTEMPTS, PAYMENTS, REFUNDS, REFUND_HOLD, X402_PAYMENTS]
  .map((table) => table.ddl)
  .concat(EVENT_LOG_SCHEMA)
  .join("\n");

/** The migrations of the order's own tables, beyond every object's shared ones. */
export const ORDER_MIGRATIONS: readonly MigrationTrack[] = [
  REFUNDS_MIGRATIONS,
  ORDER_INFO_MIGRATIONS,
];
