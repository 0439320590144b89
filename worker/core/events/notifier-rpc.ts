/**
 * @module
 * What every object with a merchant-notification outbox (order, top-up, payout) answers to the
 * account's index: redeliver one of its notifications. Each object's RPC interface extends it.
 */
import type { NotificationView } from "../../lib/api/merchant-ops.ts";

/** A notification source, named in the index as `<kind>:<object id>` (`notificationSource`). */
export type NotifierKind = "order" | "deposit" | "payout";

export interface NotifierRpc {
  /** Back to pending and due now; null when this object's outbox has no such id. */
  redeliverNotification(id: string): Promise<NotificationView | null>;
}

/**
 * The index's name for an object's outbox.
 *
 * @example
 * notificationSource("order", ctx.id.toString()); // "order:8f3c…"
 */
export function notificationSource(kind: NotifierKind, objectId: string): string {
  return `${kind}:${objectId}`;
}
