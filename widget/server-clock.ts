/**
 * @module
 * The worker's clock as seen from the device. Countdowns run on it: a device clock minutes off
 * must neither close an open payment window nor keep a closed one open.
 *
 * Every snapshot carries `updatedAt`, the worker's clock when it built the snapshot. Each one
 * gives a lower bound of the offset (server − device) at receipt: it was built before it
 * arrived. The largest bound seen is the best estimate, so an older snapshot (a replayed
 * event) can never pull the clock back.
 */

/** A corrected clock; `see` feeds it the `updatedAt` of every snapshot received. */
export interface ServerClock {
  see(serverTime: string): void;
  /** Milliseconds since the epoch on the worker's clock (the device's until a snapshot came). */
  now(): number;
}

/**
 * A clock that follows the worker's.
 *
 * @example
 * const clock = serverClock();
 * clock.see(snapshot.updatedAt);
 * countdown(payment.expiresAt, clock.now());
 */
export function serverClock(): ServerClock {
  let offset: number | null = null;
  return {
    see(serverTime) {
      const bound = Date.parse(serverTime) - Date.now();
      if (!Number.isNaN(bound) && (offset === null || bound > offset)) offset = bound;
    },
    now: () => Date.now() + (offset ?? 0),
  };
}
