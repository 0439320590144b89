/**
 * @module
 * The RPC methods every object built on an `ObjectHost` answers the same way, written once:
 * the one alarm, the reconciler's two entry points (`FollowerRpc`), a notification sent again
 * (`NotifierRpc`); and, for the objects a shopper watches (orders and top-ups), the stream
 * hub's `streamUnwatched` and the `fetch` no HTTP reaches. Each forwards to the object's host
 * or its event stream; the order, top-up and payout objects extend these classes instead of
 * repeating the forwarders (README "Worker bundle size": the repeats cost bytes gzip could not
 * share, being far apart in the bundle).
 */

import { DurableObject } from "cloudflare:workers";
import type { NotificationView } from "../../lib/api/merchant-ops.ts";
import type { CoreEnv } from "../config/core-env.ts";
import type { Followed } from "../converge/followed.ts";
import type { ListedRecord } from "../reconciler/reconciler-rpc.ts";
import type { EventStream } from "./event-stream.ts";
import { streamNotFound } from "./live-events.ts";
import type { ObjectHost } from "./object-host.ts";

/**
 * A Durable Object whose alarm, reconciliation and notifications its `host` runs.
 *
 * @example
 * class PayoutObject extends HostedDurableObject<PayoutEnv> {
 *   readonly host = new ObjectHost(this.ctx, () => this.env, PAYOUT_OBJECT, hosted);
 * }
 */
export abstract class HostedDurableObject<E extends CoreEnv> extends DurableObject<E> {
  /** The capabilities and the one alarm (`object-host.ts`). */
  abstract readonly host: ObjectHost<E>;

  /** The one alarm: the host dispatches it to the capabilities (`object-host.ts`). */
  override alarm(): Promise<void> {
    return this.host.alarm();
  }

  /** The reconciler hands a listed record that shows something new (`FollowerRpc`). */
  admitListed(listed: ListedRecord): Promise<void> {
    return this.host.admitListed(listed);
  }

  /** The reconciler found a followed object in no open list: one `GET` (`FollowerRpc`). */
  reconcileRead(target: Followed): Promise<void> {
    return this.host.reconcileRead(target);
  }

  /** Sends one of this object's notifications again (`NotifierRpc`). */
  redeliverNotification(id: string): Promise<NotificationView | null> {
    return this.host.redeliverNotification(id);
  }
}

/**
 * A hosted object shoppers watch through a stream hub (orders, top-ups): it also answers
 * the hub's `streamUnwatched` (`WatchedRpc`); each opens its stream itself (`streamOpen`).
 *
 * @example
 * class OrderObject extends WatchedDurableObject<CoreEnv> {
 *   readonly events = new EventStream<CheckoutSnapshot>(this.host.log, this.host.streamHost);
 * }
 */
export abstract class WatchedDurableObject<E extends CoreEnv> extends HostedDurableObject<E> {
  /** The object's watchers (`event-stream.ts`). */
  abstract readonly events: Pick<EventStream<{ final: boolean; seq: number }>, "unwatched">;

  /**
   * No HTTP reaches the object any more (its stream is served by its stream hub,
   * `core/streams/`): 404. Kept so the object's stub keeps its `fetch`, as every stub has.
   */
  override async fetch(_request: Request): Promise<Response> {
    return streamNotFound("Streams are served by the stream hubs.");
  }

  /** The hub's last stream of this object ended (`WatchedRpc`). */
  streamUnwatched(hub: string): Promise<void> {
    return this.events.unwatched(hub);
  }
}
