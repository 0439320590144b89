/**
 * @module
 * What the rest of the worker may ask the account's index (`AccountObject`) through its stub,
 * without importing the class: `Env` names the `ACCOUNTS` namespace by this interface.
 */
import type {
  NOTIFICATION_STATUSES,
  NotificationType,
  NotificationView,
  OrderSummary,
} from "../../lib/api/merchant-ops.ts";
import type { FeedEntry } from "../events/index-feed.ts";
import type { PagePosition } from "./page-cursor.ts";

/** The filters of the order list and export (already validated by the route). */
export interface OrderFilters {
  states?: OrderSummary["state"][];
  /** ISO instants as `toISOString` writes them: from inclusive, to exclusive. */
  createdFrom?: string;
  createdTo?: string;
  invoicePrefix?: string;
  currency?: string;
  cryptoCurrencyCode?: string;
}

/** The filters of the notification log. */
export interface NotificationFilters {
  status?: (typeof NOTIFICATION_STATUSES)[number];
  invoiceNumber?: string;
}

/** One page, newest first; `next` is the last row's position when more rows follow. */
export interface Page<T> {
  data: T[];
  next: PagePosition | null;
}

/** What the doctor reads from the index. */
export interface AccountHealth {
  failedNotifications: number;
  refusedLastHour: number;
  lastRefusedAt: string | null;
  lastVerifiedAt: string | null;
}

/**
 * What `sendTestNotifications` did: queued these, or refused (nothing queued) until a slot frees
 * up in `retryAfter` whole seconds.
 */
export type TestSend = { ok: true; views: NotificationView[] } | { ok: false; retryAfter: number };

/** The account index's RPC methods (see `account-object.ts`). */
export interface AccountRpc extends Rpc.DurableObjectBranded {
  applyFeed(source: string, entries: FeedEntry[]): Promise<void>;
  /**
   * Answers and forgets the facts rows objects delivered (`core/events/facts-feed.ts`), at most
   * `limit`: the reconciler's take at the start of a sweep.
   */
  takeFacts(limit: number): Promise<string[]>;
  listOrders(
    filters: OrderFilters,
    limit: number,
    after: PagePosition | null,
  ): Promise<Page<OrderSummary>>;
  listNotifications(
    filters: NotificationFilters,
    limit: number,
    after: PagePosition | null,
  ): Promise<Page<NotificationView>>;
  redeliver(id: string): Promise<NotificationView | null>;
  /** Queues test notifications, or refuses over the deployment's limit (`test-throttle.ts`). */
  sendTestNotifications(types: NotificationType[]): Promise<TestSend>;
  recordWebhooks(tally: {
    refused: number;
    lastRefusedAt: string | null;
    lastVerifiedAt: string | null;
  }): Promise<void>;
  health(): Promise<AccountHealth>;
  /** Records which checkout an x402 transaction paid (`x402-routes.ts`). */
  routeX402(transaction: string, checkoutId: string): Promise<void>;
  /** The checkout an x402 transaction paid, or null. */
  x402Route(transaction: string): Promise<string | null>;
}
