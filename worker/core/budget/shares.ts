/**
 * @module
 * Fair shares of the shopper lanes (`interactive`, `relock`) among their clients, kept by the
 * budget object (`budget-object.ts`) beside its window (`window.ts`).
 *
 * A client is what the edge names one (`edge/http/client-key.ts`: the caller's address, an
 * IPv6 /64, hashed): every checkout it opens counts as the same client, so opening more
 * checkouts buys no more of the budget. The rule: a client holds at most its share of calls at
 * once, counting the calls granted to it in this window and those reserved for it in later
 * windows; its share is the shopper lanes' rate split evenly among the clients active now
 * (`shareOf`), at least `MIN_SHARE`. A caller over its share is refused at once (`overShare`):
 * it is never reserved a later window, so the queue ahead of anyone holds at most one share
 * per client. Alone, a client may take the whole lane (no one waits); as soon as another asks,
 * both hold at most half.
 *
 * Invariants:
 * - `#clients` holds only active clients: one that asked in this window or the one before, or
 *   holds a call in this window or a later one; at most `MAX_CLIENTS` (a newcomer beyond that
 *   is counted in the one shared `OVERFLOW` entry, so memory is bounded and nobody escapes
 *   the rule);
 * - each client's `calls` holds at most `MAX_AHEAD_WINDOWS + 2` windows (this one, the edge's
 *   next one, and the reserved ones), ascending;
 * - pruning runs once per window, O(clients); every other step is O(windows a client holds).
 */
import { MAX_AHEAD_WINDOWS, WINDOW_MS, windowOf } from "./window.ts";

/** Most clients kept at once (about 100 bytes each). */
export const MAX_CLIENTS = 4_096;
/** The key every client beyond `MAX_CLIENTS` shares. */
export const OVERFLOW = "*overflow";
/**
 * Calls any client may hold, however many clients are active: a create and its first currency
 * lock in one window, so an honest shopper is never refused for asking too much.
 */
export const MIN_SHARE = 2;

interface Client {
  /** Start of the last window it asked in. */
  asked: number;
  /** [window start, calls held in it], ascending; only this window and later ones. */
  calls: [number, number][];
}

/**
 * One client's share of `laneRate` calls when `active` clients ask.
 *
 * @example
 * shareOf(8, 1); // 8: alone, the whole lane
 * shareOf(8, 2); // 4
 * shareOf(8, 60); // 2 (MIN_SHARE)
 */
export function shareOf(laneRate: number, active: number): number {
  return Math.max(MIN_SHARE, Math.floor(laneRate / Math.max(1, active)));
}

/** The clients of the shopper lanes and the calls each holds (memory only, like the window). */
export class ClientShares {
  readonly #clients = new Map<string, Client>();
  /** The window the table was last pruned in. */
  #window = 0;

  /** Clients active now. */
  active(now: number): number {
    this.#prune(now);
    return this.#clients.size;
  }

  /**
   * How many more calls `client` may be granted at `now` out of `laneRate` (its share less what
   * it holds); counts it active.
   *
   * @example
   * const cap = shares.room(key, shopperRate(10), Date.now()); // then grant(…, cap)
   */
  room(client: string, laneRate: number, now: number): number {
    const entry = this.#entry(client, now);
    const share = shareOf(laneRate, this.#clients.size);
    return Math.max(0, share - entry.calls.reduce((sum, [, n]) => sum + n, 0));
  }

  /**
   * Counts `calls` granted to `client`, held until the window starting `window` ends (the
   * window of the lease's `spendUntil`).
   *
   * @example
   * shares.take(key, windowOf(lease.spendUntil), lease.granted);
   */
  take(client: string, window: number, calls: number, now: number): void {
    const entry = this.#entry(client, now);
    const at = entry.calls.findIndex(([w]) => w >= window);
    if (at >= 0 && entry.calls[at]![0] === window) entry.calls[at]![1] += calls;
    else if (at >= 0) entry.calls.splice(at, 0, [window, calls]);
    else entry.calls.push([window, calls]);
  }

  /** When `client` next holds one call less: the end of the first window holding its calls. */
  freedAt(client: string, now: number): number {
    const first = this.#clients.get(this.#keyOf(client))?.calls[0]?.[0];
    return (first ?? windowOf(now)) + WINDOW_MS;
  }

  /** The entry of `client` (created, or the overflow's when the table is full). */
  #entry(client: string, now: number): Client {
    this.#prune(now);
    const window = windowOf(now);
    const key = this.#keyOf(client);
    let entry = this.#clients.get(key);
    if (!entry) {
      entry = { asked: window, calls: [] };
      this.#clients.set(key, entry);
    }
    entry.asked = window;
    return entry;
  }

  #keyOf(client: string): string {
    return this.#clients.has(client) || this.#clients.size < MAX_CLIENTS ? client : OVERFLOW;
  }

  /** Once per window: drops past windows' calls, and clients neither asking nor holding. */
  #prune(now: number): void {
    const window = windowOf(now);
    if (window <= this.#window) return;
    this.#window = window;
    for (const [key, entry] of this.#clients) {
      while (entry.calls.length > 0 && entry.calls[0]![0] < window) entry.calls.shift();
      if (entry.calls.length > MAX_AHEAD_WINDOWS + 2) entry.calls.length = MAX_AHEAD_WINDOWS + 2;
      if (entry.calls.length === 0 && entry.asked < window - WINDOW_MS) this.#clients.delete(key);
    }
  }
}
