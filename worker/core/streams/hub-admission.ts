/**
 * @module
 * Which new stream a stream hub admits when it is full, so that no checkout's watchers can
 * deny streams to the other checkouts of its hub (one sixteenth of the shop).
 *
 * The hub counts its live streams and the streams being opened (an opening is admitted
 * before the checkout's answer, so a burst of concurrent opens would otherwise pass a check of
 * live streams only). Below `MAX_HUB_STREAMS`: admitted. Full: the new stream takes the place
 * of the oldest stream of the checkout with the most live streams, when that checkout would
 * still have at least as many as the new stream's checkout; else 503 `busy` (the widget
 * polls). So a checkout's share of a full hub is never cut below an equal share: to deny a
 * stream to a checkout with one watcher, an attacker must hold one stream on each of
 * `MAX_HUB_STREAMS` distinct live checkouts of that hub (≈ 160,000 checkouts in the shop),
 * not thousands of streams on a few. A stream given way reconnects (EventSource) and is
 * refused rather than taking a place back: the rule only ever evens the shares out.
 */

/** What a hub holds of one checkout: its live streams and the streams being opened. */
export interface EntryLoad {
  readonly live: number;
  readonly openings: number;
}

/** Admit; admit after closing the oldest stream of `key`; or refuse (503 `busy`). */
export type Admission = { kind: "admit" } | { kind: "evict"; key: string } | { kind: "busy" };

/**
 * Whether a new stream of `key` may open in a hub holding `loads`, with at most `cap` streams.
 *
 * @example
 * admission(new Map([["order:a", { live: 3, openings: 0 }]]), "order:b", 3)
 * // { kind: "evict", key: "order:a" }
 */
export function admission(
  loads: Iterable<readonly [string, EntryLoad]>,
  key: string,
  cap: number,
): Admission {
  if (!Number.isInteger(cap) || cap < 1) throw new Error(`bad hub stream cap ${cap}`);
  let total = 0;
  let mine = 0;
  let largestKey: string | null = null;
  let largest = 0;
  for (const [k, load] of loads) {
    total += load.live + load.openings;
    if (k === key) mine = load.live + load.openings;
    else if (largestKey === null || load.live > largest) {
      largestKey = k;
      largest = load.live;
    }
  }
  if (total < cap) return { kind: "admit" };
  // After the move the largest keeps `largest - 1` ≥ `mine + 1`: shares only even out.
  if (largestKey !== null && largest > mine + 1) return { kind: "evict", key: largestKey };
  return { kind: "busy" };
}
