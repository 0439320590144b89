/**
 * @module
 * `AccountObject`: the index of one service account (one Durable Object per upstream base URL +
 * Account ID, `account-key.ts`). It answers what no per-order object can: the order list and
 * export, the notification log across orders, and the webhook health the doctor reports.
 *
 * Why a Durable Object and not D1: it needs no extra deploy step (no database to create and
 * bind; wrangler makes the class from `wrangler.toml`'s migration), its SQLite is strongly
 * consistent and local to the object, and one object per account is far from its limits at
 * a shop's order rates (each order writes its summary once per change, in batches).
 *
 * Invariants:
 * - it holds projections only: each row comes from the object that owns the fact, through that
 *   object's index feed (`core/events/index-feed.ts`), applied only when its version is newer; so
 *   it converges to the orders' ledgers after any fault, and can be rebuilt from them;
 * - its own outbox holds only test notifications (`sendTestNotifications`), reported to its own
 *   log through the same feed rows, applied by its alarm;
 * - it also holds, for the account's reconciler, the followed objects' facts their feeds carry
 *   (`followed-facts.ts`) until the reconciler takes them (`takeFacts`, once per sweep): a relay
 *   of hints, so one feed delivery per change also informs the reconciler.
 */

import { DurableObject } from "cloudflare:workers";
import type {
  NotificationType,
  NotificationView,
  OrderSummary,
} from "../../lib/api/merchant-ops.ts";
import { notificationSecret, parseConfig } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { configLogger } from "../config/logger.ts";
import { deliverFeed, type FeedEntry, nextFeedAt } from "../events/index-feed.ts";
import { deliverOutbox, enqueue, nextOutboxAt, redeliver } from "../events/outbox-store.ts";
import { takeSlot } from "../events/throttle.ts";
import { notifierStub } from "../objects/stubs.ts";
import { createTablesAtStart } from "../storage/tables-at-start.ts";
import type {
  AccountHealth,
  AccountRpc,
  NotificationFilters,
  OrderFilters,
  Page,
  TestSend,
} from "./account-rpc.ts";
import { MAX_TAKEN, putFollowedFacts, takeFollowedFacts } from "./followed-facts.ts";
import {
  applyNotification,
  failedCount,
  listNotifications,
  pruneLog,
  sourceOf,
} from "./notification-log.ts";
import { applyOrder, listOrders } from "./order-index.ts";
import type { PagePosition } from "./page-cursor.ts";
import { ACCOUNT_SCHEMA } from "./schema.ts";
import { testNotifications } from "./test-notifications.ts";
import { TEST_SENDS } from "./test-throttle.ts";
import { readWebhookHealth, recordTally, type WebhookTally } from "./webhook-health.ts";
import { putRoute, routeOf } from "./x402-routes.ts";

/** The account's own outbox, as a notification source. */
export const ACCOUNT_SOURCE = "account";

/** Retention runs at most this often (on a feed delivery). */
const PRUNE_EVERY_MS = 3_600_000;

export class AccountObject extends DurableObject<CoreEnv> implements AccountRpc {
  #prunedAt = 0;

  constructor(ctx: DurableObjectState, env: CoreEnv) {
    super(ctx, env);
    createTablesAtStart(ctx, ACCOUNT_SCHEMA);
  }

  get #sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  /** Applies a batch of feed rows from one object (`source`), in one transaction. */
  async applyFeed(source: string, entries: FeedEntry[]): Promise<void> {
    this.#apply(source, entries);
  }

  #apply(source: string, entries: FeedEntry[]): void {
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      for (const e of entries) {
        if (e.kind === "order") applyOrder(this.#sql, source, e.version, e.body);
        else if (e.kind === "facts") putFollowedFacts(this.#sql, source, e.key, e.version, e.body);
        else applyNotification(this.#sql, source, e.version, e.body);
      }
      if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
        this.#prunedAt = now;
        const pruned = pruneLog(this.#sql, now);
        if (pruned > 0) this.#logger()?.warn("notifications.pruned_failed", { pruned });
      }
    });
  }

  /** The reconciler takes the followed objects' facts delivered since its last take. */
  async takeFacts(limit: number): Promise<string[]> {
    return this.ctx.storage.transactionSync(() =>
      takeFollowedFacts(this.#sql, Math.min(limit, MAX_TAKEN)),
    );
  }

  async listOrders(
    filters: OrderFilters,
    limit: number,
    after: PagePosition | null,
  ): Promise<Page<OrderSummary>> {
    return listOrders(this.#sql, filters, limit, after);
  }

  async listNotifications(
    filters: NotificationFilters,
    limit: number,
    after: PagePosition | null,
  ): Promise<Page<NotificationView>> {
    return listNotifications(this.#sql, filters, limit, after);
  }

  /**
   * Sends notification `id` again (its owning object resets it to pending and wakes its
   * alarm); null when no object of this account holds it.
   */
  async redeliver(id: string): Promise<NotificationView | null> {
    const source = sourceOf(this.#sql, id);
    if (source === null) return null;
    if (source === ACCOUNT_SOURCE) {
      const view = redeliver(this.#sql, id, Date.now());
      await this.ctx.storage.setAlarm(Date.now());
      return view;
    }
    const stub = notifierStub(this.env, source);
    return stub ? stub.redeliverNotification(id) : null;
  }

  /**
   * Queues signed test notifications (`test-notifications.ts`) and delivers them now, unless the
   * deployment used its calls of the minute (`test-throttle.ts`): then nothing is queued.
   */
  async sendTestNotifications(types: NotificationType[]): Promise<TestSend> {
    const now = Date.now();
    // The slot and the queue in one transaction: a refused call leaves no row behind.
    const sent = this.ctx.storage.transactionSync((): TestSend => {
      const slot = takeSlot(this.ctx.storage.kv, TEST_SENDS, now);
      if (!slot.ok) return slot;
      const at = new Date(now).toISOString();
      return {
        ok: true,
        views: testNotifications(types, at).map((n) => enqueue(this.#sql, n, now)),
      };
    });
    if (sent.ok) await this.ctx.storage.setAlarm(now);
    return sent;
  }

  async recordWebhooks(tally: WebhookTally): Promise<void> {
    recordTally(this.#sql, tally, Date.now());
  }

  async health(): Promise<AccountHealth> {
    return {
      failedNotifications: failedCount(this.#sql),
      ...readWebhookHealth(this.#sql, Date.now()),
    };
  }

  #logger() {
    const parsed = parseConfig(this.env);
    return parsed.ok ? configLogger(parsed.config) : null;
  }

  /** Delivers the test notifications, then applies their states to the log. */
  async routeX402(transaction: string, checkoutId: string): Promise<void> {
    putRoute(this.#sql, transaction, checkoutId, Date.now());
  }

  async x402Route(transaction: string): Promise<string | null> {
    return routeOf(this.#sql, transaction);
  }

  override async alarm(): Promise<void> {
    const parsed = parseConfig(this.env);
    if (parsed.ok) {
      await deliverOutbox(this.#sql, {
        url: parsed.config.MERCHANT_WEBHOOK_URL ?? null,
        secret: notificationSecret(parsed.config),
        now: Date.now(),
        log: configLogger(parsed.config),
      });
    }
    await deliverFeed(
      this.#sql,
      async (entries) => this.#apply(ACCOUNT_SOURCE, entries),
      Date.now(),
    );
    const times = [nextOutboxAt(this.#sql), nextFeedAt(this.#sql)].filter((t) => t !== null);
    if (times.length > 0) await this.ctx.storage.setAlarm(Math.min(...times));
  }
}
