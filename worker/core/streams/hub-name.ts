/**
 * @module
 * Which stream hub holds a checkout's streams: `STREAM_HUB_COUNT` hub objects per deployment,
 * named `stream-hub-<n>`, a checkout's hub `n` = FNV-1a(checkout id) mod the count.
 *
 * Changing the count is a deploy (edit the constant): every object restarts with new code, so
 * every open stream ends and each widget reconnects with `Last-Event-ID` to its checkout's new
 * hub, which is replayed what it missed. A checkout remembers one hub (the last that opened a
 * stream for it); the old hub's orphan sweep later says "unwatched" from the old name, which
 * the checkout ignores (`event-stream.ts`).
 */

/**
 * Stream hubs per deployment. Why 16: measured (README, "Memory per watched checkout"), 1,000
 * watchers of 1,000 checkouts over 16 hubs cost 174–175 MB in all against 473–541 MB with one
 * object per checkout; each hub holds at most `MAX_HUB_STREAMS` streams.
 */
export const STREAM_HUB_COUNT = 16;

/**
 * The name of the hub that holds `checkoutId`'s streams.
 *
 * @example
 * streamHubName("cAbc…") // "stream-hub-7"
 */
export function streamHubName(checkoutId: string, count = STREAM_HUB_COUNT): string {
  if (!Number.isInteger(count) || count < 1) throw new Error(`bad stream hub count ${count}`);
  let hash = 0x811c9dc5;
  for (let i = 0; i < checkoutId.length; i++) {
    hash ^= checkoutId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `stream-hub-${hash % count}`;
}
