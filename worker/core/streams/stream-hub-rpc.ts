/**
 * @module
 * The two faces between a stream hub (`stream-hub-object.ts`) and the objects shoppers watch
 * (order, top-up): what the hub asks of a watched object (`WatchedRpc`: the opening frames of a
 * new stream, "no one watches you any more") and what a watched object sends its hub
 * (`StreamHubRpc.publish`: the events it appended, in `seq` order, one RPC per batch). The key a
 * hub knows a watched object by is `<kind>:<object id hex>` (`watchedTarget`).
 */

/** One committed event as the hub relays it: its id, its SSE frame, and whether it is final. */
export interface HubFrame {
  seq: number;
  frame: string;
  final: boolean;
}

/**
 * What a watched object answers a new stream: 404 (`missing`, with its message), 204 (`gone`:
 * the client already saw the final event), or the frames to send first (the current snapshot,
 * or exactly the events after the client's last id) and the newest `seq` they cover.
 */
export type StreamOpening =
  | { kind: "missing"; message: string }
  | { kind: "gone" }
  | { kind: "frames"; frames: string[]; lastSeq: number; final: boolean };

/** What a stream hub asks of an order or top-up (the object implements it). */
export interface WatchedRpc {
  /**
   * A stream opens at `hub` for this object (`key` is how the hub knows it), resuming after
   * `lastId` (null: a fresh client). When the answer is a live stream, the object is watched
   * from now on and publishes every new event to `hub`.
   */
  streamOpen(hub: string, key: string, lastId: number | null): Promise<StreamOpening>;
  /** The last stream `hub` held for this object ended: it is no longer watched from there. */
  streamUnwatched(hub: string): Promise<void>;
}

/** What a watched object calls on its hub. */
export interface StreamHubRpc extends Rpc.DurableObjectBranded {
  /**
   * Relays committed events of `key` to its streams, oldest first. Answers false when the hub
   * holds no stream of `key` (restarted, or its last watcher left): the object stops publishing.
   */
  publish(key: string, frames: HubFrame[]): Promise<boolean>;
}

/** A watched object's kind: its namespace. */
export type WatchedKind = "order" | "deposit";

const TARGET = /^(order|deposit):([0-9a-f]{64})$/;

/**
 * The key of a watched object, `<kind>:<id hex>`, or null for a string of another shape.
 *
 * @example
 * watchedTarget("order:8f3c…") // { kind: "order", id: "8f3c…" }
 */
export function watchedTarget(key: string): { kind: WatchedKind; id: string } | null {
  const m = TARGET.exec(key);
  return m ? { kind: m[1] as WatchedKind, id: m[2]! } : null;
}
