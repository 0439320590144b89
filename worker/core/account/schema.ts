/**
 * @module
 * SQLite schema of the account's index object (`account-object.ts`), one object per service
 * account. Each of the account's own tables is described once, as columns, by the module that
 * owns it (`core/storage/table.ts`): this file only lists them. `orders`, `notifications` and
 * `followed_facts` are projections the objects that own the facts feed
 * (`core/events/index-feed.ts`); the webhook tables hold the routes' reports, `x402_routes` what
 * orders write:
 *
 * - `orders`: each order's summary (`OrderSummary` JSON in `body`) with the columns the list
 *   filters and sorts on, and the `version` of the order's feed row it came from (a row only
 *   ever moves to a higher version: a stale, reordered or repeated delivery changes nothing;
 *   `order-index.ts`);
 * - `notifications`: each notification's delivery state, with the object (`source`) whose
 *   outbox holds it, for redelivery; bounded by `notification-log.ts` retention;
 * - `webhook_minutes` / `webhook_health`: the service's webhooks refused for a bad signature,
 *   per minute for the last 24 h, and the last refused and verified times (`webhook-health.ts`);
 * - `followed_facts`: followed objects' new facts, kept until the reconciler takes them
 *   (`followed-facts.ts`);
 * - `x402_routes`: which checkout an x402 transaction paid (`x402-routes.ts`);
 * - plus the shared `outbox` and `index_feed` (the account's own test notifications), whose
 *   DDL their owners in `core/events/` still write by hand.
 */
import { INDEX_FEED_SCHEMA } from "../events/index-feed.ts";
import { OUTBOX_SCHEMA } from "../events/outbox-store.ts";
import { FOLLOWED_FACTS } from "./followed-facts.ts";
import { NOTIFICATIONS } from "./notification-log.ts";
import { ORDERS } from "./order-index.ts";
import { WEBHOOK_HEALTH, WEBHOOK_MINUTES } from "./webhook-health.ts";
import { X402_ROUTES } from "./x402-routes.ts";

/** The account object's tables (idempotent), each made from its owner's description. */
export const ACCOUNT_SCHEMA = [
  ORDERS,
  NOTIFICATIONS,
  WEBHOOK_MINUTES,
  WEBHOOK_HEALTH,
  FOLLOWED_FACTS,
  X402_ROUTES,
]
  .map((table) => table.ddl)
  .concat(OUTBOX_SCHEMA, INDEX_FEED_SCHEMA)
  .join("\n");
