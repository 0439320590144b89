/**
 * @module
 * One reconciliation pass, run by a Durable Object's alarm: reads every followed upstream
 * object whose read is due (`followed.ts`), through the object's own lane, so a webhook that
 * never arrived still converges.
 *
 * Invariants:
 * - each read is admitted like a webhook's refetch (older than the known facts: no change);
 * - a failed read never fails the alarm: it is rescheduled with a longer gap; a broken
 *   invariant (`invariant.ts`) is no failed read: it is thrown on, so the alarm fails loudly;
 * - a 429 stops the pass and defers every read of the object past the service's
 *   `msBeforeNext` (each of them would be refused until then);
 * - a read the deployment's budget had no call for (`budget.exhausted`: reconciliation yields
 *   to shoppers' calls) did not fail and learned nothing: it and the pass's other due reads
 *   wait for the budget's retry time (its next window, or the end of a pause), with their gap
 *   and failure count unchanged. Booked as a failure it would wait a doubled gap (30 s, then
 *   60 s… up to 5 min) for a call the budget gives again within a second;
 * - at most `MAX_READS_PER_PASS` reads per pass, so one alarm never holds the lane for long.
 */
import type { Logger } from "../../lib/log.ts";
import { UpstreamError } from "../../service/errors.ts";
import { GATE_REFUSAL } from "../../service/transport.ts";
import { deferRead, deferReads, dueObjects, type Followed, readFailed } from "./followed.ts";
import { InvariantBroken } from "./invariant.ts";

/** Reads one alarm pass makes at most; the rest stay due and the alarm fires again at once. */
export const MAX_READS_PER_PASS = 10;

/** When the budget's refusal names no retry time: its windows are one second. */
const BUDGET_RETRY_MS = 1_000;

/**
 * Limits of a reconciliation read: one attempt of at most 5 s (the next pass retries), last in
 * the deployment's upstream budget.
 */
export const RECONCILE_READ = { timeoutMs: 5_000, maxAttempts: 1, priority: "reconcile" } as const;

/**
 * Reads every due object once.
 *
 * @example
 * await reconcileDue({ sql, now: Date.now(), watched: hub.size > 0, log,
 *   read: (target) => lane.run(() => this.readFollowed(target)) });
 */
export async function reconcileDue(input: {
  sql: SqlStorage;
  now: number;
  watched: boolean;
  log: Logger;
  read: (target: Followed) => Promise<void>;
}): Promise<void> {
  for (const target of dueObjects(input.sql, input.now, MAX_READS_PER_PASS)) {
    if (!(await readOne({ ...input, target }))) return;
  }
}

/**
 * When the deployment's budget refused a read (no call was made, nothing failed): the time it
 * may be asked again; null for any other error.
 *
 * @example
 * const retryAt = gateRetryAt(error, Date.now()); // then defer, without counting a failure
 */
export function gateRetryAt(error: unknown, at: number): number | null {
  if (!(error instanceof UpstreamError) || error.code !== GATE_REFUSAL) return null;
  return at + Math.max(1, error.retryAfterMs ?? BUDGET_RETRY_MS);
}

/**
 * Reads one followed object (`read` throws the upstream error when it fails): a failure is
 * rescheduled with a longer gap; the service's 429 also defers every read of the object past
 * its hint; the budget's refusal defers them to its retry time and is no failure. Both answer
 * false (stop the pass: the next read would meet the same refusal).
 *
 * @example
 * await readOne({ sql, target, watched, log, read: (t) => lane.run(() => this.readFollowed(t)) });
 */
export async function readOne(input: {
  sql: SqlStorage;
  target: Followed;
  watched: boolean;
  log: Logger;
  read: (target: Followed) => Promise<void>;
}): Promise<boolean> {
  const { sql, target, watched, log } = input;
  try {
    await input.read(target);
    return true;
  } catch (error) {
    if (error instanceof InvariantBroken) throw error;
    const at = Date.now();
    const retryAt = gateRetryAt(error, at);
    if (retryAt !== null) {
      deferRead(sql, target, retryAt);
      deferReads(sql, retryAt);
      log.debug("reconcile.budget_deferred", {
        kind: target.kind,
        retryAfterMs: retryAt - at,
      });
      return false;
    }
    if (error instanceof UpstreamError && error.status === 429) {
      const notBefore = at + (error.retryAfterMs ?? 1_000);
      readFailed(sql, target, { now: at, notBefore, watched });
      deferReads(sql, notBefore);
      log.warn("reconcile.rate_limited", { kind: target.kind, retryAfterMs: notBefore - at });
      return false;
    }
    readFailed(sql, target, { now: at, watched });
    log.warn("reconcile.read_failed", {
      kind: target.kind,
      error: error instanceof UpstreamError ? error.kind : "error",
      status: error instanceof UpstreamError ? (error.status ?? null) : null,
    });
    return true;
  }
}
