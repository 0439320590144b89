/**
 * @module
 * The `upstream_objects` table every Durable Object keeps: one row per upstream object it
 * follows (an order's invoices, a top-up's deposit, a payout's withdrawal), holding
 *
 * - the object's **known facts** (newest status and amount received ever read; see
 *   `facts.ts`): a read older than them changes nothing;
 * - the **newest acknowledged delivery time** (`acked_at`, epoch ms of the envelope's signed
 *   `timestamp`; NULL until a stamped delivery was acknowledged): a delivery stamped earlier
 *   is superseded (`delivery.ts`);
 * - what the account's reconciler was last **told** of it (`told`, the Follower's, so a restarted
 *   object does not register again what the reconciler knows);
 * - its **reconciliation schedule** (`next_read_at`, the current gap, `keep_until`): the
 *   object's alarm reads every row that is due (`reconcile.ts`), so a lost webhook still
 *   converges. `next_read_at` NULL means the object is no longer read.
 *
 * The alarm's time is the earliest `next_read_at` or outbox retry (`alarm-time.ts`).
 */
import { columnAdded, type MigrationTrack } from "../storage/migrations.ts";
import { type Facts, isOlder } from "./facts.ts";
import { recordFingerprint } from "./record-fingerprint.ts";
import { FIRST_READ_MS, nextGap, nextReadAt } from "./schedule.ts";
import type { UpstreamKind } from "./status-rank.ts";

/** DDL, run with the object's own schema under `blockConcurrencyWhile`. */
export const FOLLOWED_SCHEMA = `
CREATE TABLE IF NOT EXISTS upstream_objects (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  status TEXT NOT NULL,
  received TEXT NOT NULL DEFAULT '0',
  read_at INTEGER,
  gap_ms INTEGER NOT NULL,
  next_read_at INTEGER,
  keep_until INTEGER,
  failures INTEGER NOT NULL DEFAULT 0,
  acked_at INTEGER,
  seen TEXT,
  told TEXT,
  PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS upstream_objects_due ON upstream_objects (next_read_at);
`;

type Row = Record<string, SqlStorageValue>;

/**
 * The followed table's numbered migrations (`core/storage/migrations.ts`). Step 1 adds `acked_at`
 * to a table made before it existed: existing rows get NULL, so no delivery of theirs is
 * superseded until a stamped one is acknowledged, which is the rule they had.
 *
 * @example
 * migrate(sql, [FOLLOWED_MIGRATIONS]);
 */
export const FOLLOWED_MIGRATIONS: MigrationTrack = {
  track: "followed",
  steps: [
    columnAdded(1, "upstream_objects", "acked_at", "INTEGER", "the newest acknowledged send time"),
    columnAdded(
      2,
      "upstream_objects",
      "seen",
      "TEXT",
      "the fingerprint of the newest record admitted",
    ),
    columnAdded(
      3,
      "upstream_objects",
      "told",
      "TEXT",
      "what the reconciler was last told of it (`core/events/follower.ts`)",
    ),
  ],
};

/** A followed object, as the alarm reads it. */
export interface Followed {
  kind: UpstreamKind;
  id: string;
}

/** What the object decided about following after a read. */
export interface FollowPlan {
  now: number;
  /** False once the object is final for the worker (nothing more to learn). */
  follow: boolean;
  /** Stop reading after this time (expiry + late-payment window), or null for "until final". */
  keepUntil: number | null;
  /** True while a shopper watches. */
  watched: boolean;
}

/**
 * The known facts of an upstream object, or null when it is not followed yet.
 *
 * @example
 * knownFacts(sql, "invoice", invoiceId)?.status;
 */
export function knownFacts(sql: SqlStorage, kind: UpstreamKind, id: string): Facts | null {
  const r = sql
    .exec<Row>("SELECT status, received FROM upstream_objects WHERE kind = ? AND id = ?", kind, id)
    .toArray()[0];
  return r ? { status: String(r.status), received: String(r.received) } : null;
}

/**
 * The known facts of an upstream object and the send time (epoch ms) of the newest delivery
 * acknowledged for it (null when none with a timestamp was), in one read; null when the object
 * is not followed.
 *
 * @example
 * const state = followedState(sql, "invoice", invoiceId);
 * if (state?.ackedAt != null && sentAt !== null && sentAt < state.ackedAt) // superseded
 */
export function followedState(
  sql: SqlStorage,
  kind: UpstreamKind,
  id: string,
): { facts: Facts; ackedAt: number | null } | null {
  const r = sql
    .exec<Row>(
      "SELECT status, received, acked_at FROM upstream_objects WHERE kind = ? AND id = ?",
      kind,
      id,
    )
    .toArray()[0];
  if (!r) return null;
  return {
    facts: { status: String(r.status), received: String(r.received) },
    ackedAt: r.acked_at === null || r.acked_at === undefined ? null : Number(r.acked_at),
  };
}

/**
 * Records that a delivery sent at `sentAt` (epoch ms) was acknowledged: `acked_at` only moves
 * forward. Does nothing for an object that is not followed.
 *
 * @example
 * recordAcked(sql, "deposit", depositId, sentAt);
 */
export function recordAcked(sql: SqlStorage, kind: UpstreamKind, id: string, sentAt: number): void {
  sql.exec(
    "UPDATE upstream_objects SET acked_at = MAX(COALESCE(acked_at, ?), ?) WHERE kind = ? AND id = ?",
    sentAt,
    sentAt,
    kind,
    id,
  );
}

/**
 * Admits one read of an upstream object: drops it when older than the known facts, else
 * stores its facts and, when given, the record's fingerprint (`seen`: what the object has, so
 * the reconciler does not hand the same record back); either way schedules the next read. Call
 * it synchronously with the write that applies the read, so facts and business rows never
 * disagree.
 *
 * @example
 * const { older } = admitRead(sql, "invoice", invoice.id, facts, plan, invoice);
 * if (older) return; // a lagging read: change nothing
 */
export function admitRead(
  sql: SqlStorage,
  kind: UpstreamKind,
  id: string,
  read: Facts,
  plan: FollowPlan,
  record?: unknown,
): { older: boolean; changed: boolean; facts: Facts } {
  const row = sql
    .exec<Row>(
      "SELECT status, received, gap_ms, seen FROM upstream_objects WHERE kind = ? AND id = ?",
      kind,
      id,
    )
    .toArray()[0];
  const known = row ? { status: String(row.status), received: String(row.received) } : null;
  const older = known !== null && isOlder(kind, read, known);
  const facts = older && known ? known : read;
  const changed =
    known === null || facts.status !== known.status || facts.received !== known.received;
  const gap = row ? nextGap(Number(row.gap_ms), changed) : FIRST_READ_MS;
  const next = plan.follow
    ? nextReadAt({ now: plan.now, gap, watched: plan.watched, keepUntil: plan.keepUntil })
    : null;
  // An older record is not what the object has: the newest admitted one stays `seen`.
  const previous = row?.seen === null || row?.seen === undefined ? null : String(row.seen);
  const seen = record === undefined || older ? previous : recordFingerprint(record);
  // An upsert, not a REPLACE: the row's other columns (`acked_at`) are not the read's to reset.
  sql.exec(
    `INSERT INTO upstream_objects (kind, id, status, received, read_at, gap_ms, next_read_at,
      keep_until, failures, seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
     ON CONFLICT (kind, id) DO UPDATE SET status = excluded.status,
      received = excluded.received, read_at = excluded.read_at, gap_ms = excluded.gap_ms,
      next_read_at = excluded.next_read_at, keep_until = excluded.keep_until, failures = 0,
      seen = excluded.seen`,
    kind,
    id,
    facts.status,
    facts.received,
    plan.now,
    gap,
    next,
    plan.keepUntil,
    seen,
  );
  return { older, changed: changed && !older, facts };
}

/**
 * Objects whose read is due at `now`, earliest first (at most `limit`).
 *
 * @example
 * for (const target of dueObjects(sql, Date.now(), 20)) await read(target);
 */
export function dueObjects(sql: SqlStorage, now: number, limit: number): Followed[] {
  return sql
    .exec<Row>(
      "SELECT kind, id FROM upstream_objects WHERE next_read_at IS NOT NULL AND next_read_at <= ? ORDER BY next_read_at LIMIT ?",
      now,
      limit,
    )
    .toArray()
    .map((r) => ({ kind: String(r.kind) as UpstreamKind, id: String(r.id) }));
}

/** The earliest due read, or null when nothing is followed. */
export function nextFollowedRead(sql: SqlStorage): number | null {
  const v = sql
    .exec<Row>(
      "SELECT MIN(next_read_at) AS at FROM upstream_objects WHERE next_read_at IS NOT NULL",
    )
    .one().at;
  return v === null || v === undefined ? null : Number(v);
}

/**
 * Brings every followed object's next read to `at` at the latest (a watcher arrived, or a
 * webhook's refetch lagged what it announced). Never postpones a read.
 *
 * @example
 * hurryReads(sql, Date.now() + WATCHED_READ_MS);
 */
export function hurryReads(sql: SqlStorage, at: number, only?: Followed): void {
  if (only) {
    sql.exec(
      "UPDATE upstream_objects SET next_read_at = MIN(next_read_at, ?) WHERE next_read_at IS NOT NULL AND kind = ? AND id = ?",
      at,
      only.kind,
      only.id,
    );
    return;
  }
  sql.exec(
    "UPDATE upstream_objects SET next_read_at = MIN(next_read_at, ?) WHERE next_read_at IS NOT NULL",
    at,
  );
}

/**
 * A read that failed: the next waits for the service's hint (429 `msBeforeNext`) or the
 * doubled gap, whichever is later.
 *
 * @example
 * readFailed(sql, target, { now, notBefore: now + 60_000 });
 */
export function readFailed(
  sql: SqlStorage,
  target: Followed,
  input: { now: number; notBefore?: number; watched: boolean },
): void {
  const row = sql
    .exec<Row>(
      "SELECT gap_ms, keep_until FROM upstream_objects WHERE kind = ? AND id = ?",
      target.kind,
      target.id,
    )
    .toArray()[0];
  if (!row) return;
  const gap = nextGap(Number(row.gap_ms), false);
  const keepUntil = row.keep_until === null ? null : Number(row.keep_until);
  const next = nextReadAt({
    now: input.now,
    gap,
    watched: input.watched,
    keepUntil,
    ...(input.notBefore === undefined ? {} : { notBefore: input.notBefore }),
  });
  sql.exec(
    "UPDATE upstream_objects SET gap_ms = ?, next_read_at = ?, failures = failures + 1 WHERE kind = ? AND id = ?",
    gap,
    next,
    target.kind,
    target.id,
  );
}

/**
 * Defers every due-soon read to `notBefore` at the earliest (the service said 429: every read
 * of this object would be refused until then).
 */
export function deferReads(sql: SqlStorage, notBefore: number): void {
  sql.exec(
    "UPDATE upstream_objects SET next_read_at = ? WHERE next_read_at IS NOT NULL AND next_read_at < ?",
    notBefore,
    notBefore,
  );
}

/**
 * Puts one followed object's read off to `at`, nothing else changed (its gap, failures and
 * facts stay: the read was not made). Also when its own schedule said later: the reconciler
 * asked for it now (`reconcileRead`) and will ask again at `at`. Not for an object no longer
 * followed.
 *
 * @example
 * deferRead(sql, target, Date.now() + error.retryAfterMs);
 */
export function deferRead(sql: SqlStorage, target: Followed, at: number): void {
  sql.exec(
    "UPDATE upstream_objects SET next_read_at = ? WHERE next_read_at IS NOT NULL AND kind = ? AND id = ?",
    at,
    target.kind,
    target.id,
  );
}

/** Stops following an object the caller no longer knows (its row is removed). */
export function forgetFollowed(sql: SqlStorage, target: Followed): void {
  sql.exec("DELETE FROM upstream_objects WHERE kind = ? AND id = ?", target.kind, target.id);
}

/** One followed object's row, as its object registers it with the reconciler. */
export interface FollowedRow {
  kind: UpstreamKind;
  id: string;
  status: string;
  received: string;
  gapMs: number;
  nextReadAt: number | null;
  keepUntil: number | null;
  /** The fingerprint of the newest record the object admitted (`recordFingerprint`), or null. */
  seen: string | null;
}

/**
 * Every followed object's row (an object follows one to a few).
 *
 * @example
 * for (const row of followedRows(sql)) register(row);
 */
export function followedRows(sql: SqlStorage): FollowedRow[] {
  return sql
    .exec<Row>(
      "SELECT kind, id, status, received, gap_ms, next_read_at, keep_until, seen FROM upstream_objects",
    )
    .toArray()
    .map((r) => ({
      kind: String(r.kind) as UpstreamKind,
      id: String(r.id),
      status: String(r.status),
      received: String(r.received),
      gapMs: Number(r.gap_ms),
      nextReadAt: r.next_read_at === null ? null : Number(r.next_read_at),
      keepUntil: r.keep_until === null ? null : Number(r.keep_until),
      seen: r.seen === null || r.seen === undefined ? null : String(r.seen),
    }));
}

/**
 * What the reconciler was last told of each followed object (the Follower's JSON, `told`),
 * by `kind|id`; objects never told are absent.
 *
 * @example
 * const told = toldRows(sql); // Map { "invoice|inv_1" => "{…}" }
 */
export function toldRows(sql: SqlStorage): Map<string, string> {
  const told = new Map<string, string>();
  for (const r of sql
    .exec<Row>("SELECT kind, id, told FROM upstream_objects WHERE told IS NOT NULL")
    .toArray())
    told.set(`${String(r.kind)}|${String(r.id)}`, String(r.told));
  return told;
}

/**
 * Keeps what the reconciler was told of one followed object (`told`, the Follower's JSON), so
 * an object that restarts does not register again what the reconciler already knows.
 *
 * @example
 * saveTold(sql, { kind: "invoice", id }, JSON.stringify(told));
 */
export function saveTold(sql: SqlStorage, target: Followed, told: string): void {
  sql.exec(
    "UPDATE upstream_objects SET told = ? WHERE kind = ? AND id = ?",
    told,
    target.kind,
    target.id,
  );
}
