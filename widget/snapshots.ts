/**
 * @module
 * Which of the worker's snapshots a view shows: the one rule the checkout and the top-up
 * follow. Every answer (POST, GET, SSE frame) is a full snapshot numbered by `seq`, which the
 * worker raises with every event it records for that checkout or deposit. So, for one id:
 *
 * - a higher `seq` is news: shown;
 * - the same `seq` is a duplicate (the stream's first frame repeating the POST's answer, the
 *   replay after a reconnect, a poll while nothing happened): ignored, it carries no event;
 * - a lower `seq` is stale (a slow POST answer arriving after a pushed update): ignored, or
 *   it would undo what the shopper already saw.
 *
 * A snapshot of another id (the view was given another token) always replaces the shown one.
 * `checkout:status` fires per new *state*: a newer snapshot that differs from the shown one
 * only in `seq` and `updatedAt` (the worker's clock) is not a new state.
 */

/** What the rule reads of a snapshot. */
export interface Numbered {
  id: string;
  seq: number;
  updatedAt: string;
}

/**
 * Whether `next` replaces `shown` (null: nothing shown yet).
 *
 * @example
 * supersedes({ id: "a", seq: 2, updatedAt }, { id: "a", seq: 2, updatedAt }) // false: duplicate
 */
export function supersedes<S extends Numbered>(shown: S | null, next: S): boolean {
  return !shown || shown.id !== next.id || next.seq > shown.seq;
}

/**
 * Whether `next` shows the shopper something `shown` did not (any field but `seq` and
 * `updatedAt` differs).
 *
 * @example
 * isNewState(shown, { ...shown, seq: shown.seq + 1 }) // false
 */
export function isNewState<S extends Numbered>(shown: S | null, next: S): boolean {
  const state = (s: S) => JSON.stringify({ ...s, seq: 0, updatedAt: 0 });
  return !shown || state(shown) !== state(next);
}
