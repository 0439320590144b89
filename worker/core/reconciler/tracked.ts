/**
 * @module
 * The reconciler's table: every upstream object some Durable Object follows, with its schedule
 * (as its object registered it, or as the reconciler moved it after an unchanged read), its
 * known facts and the fingerprint of the last record handed to its object.
 *
 * Bounded by what objects follow: a row is removed when its object stops following it
 * (`nextReadAt` null) or its window ends; a read that finds it unchanged only moves its time.
 */
import { nextGap, nextReadAt } from "../converge/schedule.ts";
import type { UpstreamKind } from "../converge/status-rank.ts";
import type { FactsUpdate, FollowerNamespace, Registration } from "./reconciler-rpc.ts";

/** DDL, run under `blockConcurrencyWhile`. */
export const TRACKED_SCHEMA = `
CREATE TABLE IF NOT EXISTS tracked (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  namespace TEXT NOT NULL,
  owner TEXT NOT NULL,
  next_read_at INTEGER NOT NULL,
  gap_ms INTEGER NOT NULL,
  keep_until INTEGER,
  watched INTEGER NOT NULL,
  status TEXT NOT NULL,
  received TEXT NOT NULL,
  fingerprint TEXT,
  PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS tracked_due ON tracked (next_read_at);
`;

/** A tracked object as a sweep reads it. */
export interface Tracked {
  kind: UpstreamKind;
  id: string;
  namespace: FollowerNamespace;
  owner: string;
  gapMs: number;
  keepUntil: number | null;
  watched: boolean;
  status: string;
  received: string;
  fingerprint: string | null;
}

type Row = Record<string, SqlStorageValue>;

const toTracked = (r: Row): Tracked => ({
  kind: String(r.kind) as UpstreamKind,
  id: String(r.id),
  namespace: String(r.namespace) as FollowerNamespace,
  owner: String(r.owner),
  gapMs: Number(r.gap_ms),
  keepUntil: r.keep_until === null ? null : Number(r.keep_until),
  watched: Number(r.watched) === 1,
  status: String(r.status),
  received: String(r.received),
  fingerprint: r.fingerprint === null ? null : String(r.fingerprint),
});

/**
 * Records what objects registered: a schedule replaces the one kept (the object has just read
 * or changed it), a null `nextReadAt` removes the row. The fingerprint becomes the newest record
 * the object says it admitted (`seen`: a webhook's record, a read), so a list page showing that
 * same record hands nothing; without one, the fingerprint kept is what the reconciler last
 * handed, and the object's facts now include it.
 *
 * @example
 * register(sql, [{ kind: "invoice", id, namespace: "ORDERS", owner, nextReadAt, … }]);
 */
export function register(sql: SqlStorage, rows: readonly Registration[]): void {
  for (const r of rows) {
    if (r.nextReadAt === null) {
      sql.exec("DELETE FROM tracked WHERE kind = ? AND id = ?", r.kind, r.id);
      continue;
    }
    sql.exec(
      `INSERT INTO tracked (kind, id, namespace, owner, next_read_at, gap_ms, keep_until, watched,
        status, received, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, id) DO UPDATE SET namespace = excluded.namespace,
        owner = excluded.owner, next_read_at = excluded.next_read_at, gap_ms = excluded.gap_ms,
        keep_until = excluded.keep_until, watched = excluded.watched, status = excluded.status,
        received = excluded.received,
        fingerprint = COALESCE(excluded.fingerprint, tracked.fingerprint)`,
      r.kind,
      r.id,
      r.namespace,
      r.owner,
      r.nextReadAt,
      r.gapMs,
      r.keepUntil,
      r.watched ? 1 : 0,
      r.status,
      r.received,
      r.seen ?? null,
    );
  }
}

/**
 * Updates tracked objects with the facts and read time their objects sent through the index
 * feed (`core/events/facts-feed.ts`): only rows still tracked change (an update never brings
 * back an object that ended), and the fingerprint moves only to a known one.
 *
 * @example
 * applyFacts(sql, [{ kind: "invoice", id, status: "suspended", received: "0", seen, nextReadAt, gapMs }]);
 */
export function applyFacts(sql: SqlStorage, updates: readonly FactsUpdate[]): void {
  for (const u of updates) {
    if (u.nextReadAt === null) continue;
    sql.exec(
      `UPDATE tracked SET next_read_at = ?, gap_ms = ?, status = ?, received = ?,
        fingerprint = COALESCE(?, fingerprint) WHERE kind = ? AND id = ?`,
      u.nextReadAt,
      u.gapMs,
      u.status,
      u.received,
      u.seen,
      u.kind,
      u.id,
    );
  }
}

/**
 * Tracked objects whose read is due at `until`, earliest first (at most `limit`).
 *
 * @example
 * const due = dueTracked(sql, Date.now() + BATCH_AHEAD_MS, 5_000);
 */
export function dueTracked(sql: SqlStorage, until: number, limit: number): Tracked[] {
  return sql
    .exec<Row>(
      "SELECT * FROM tracked WHERE next_read_at <= ? ORDER BY next_read_at LIMIT ?",
      until,
      limit,
    )
    .toArray()
    .map(toTracked);
}

/**
 * One tracked object as it is now, or null when it is no longer tracked: a sweep offers each
 * listed record against this, not against the row it read before its awaits (objects register
 * meanwhile, e.g. after a webhook brought the very record the page shows).
 *
 * @example
 * const row = trackedRow(sql, "invoice", id);
 */
export function trackedRow(sql: SqlStorage, kind: UpstreamKind, id: string): Tracked | null {
  const r = sql.exec<Row>("SELECT * FROM tracked WHERE kind = ? AND id = ?", kind, id).toArray()[0];
  return r ? toTracked(r) : null;
}

/** The earliest due read, or null when nothing is tracked. */
export function nextTrackedRead(sql: SqlStorage): number | null {
  const v = sql.exec<Row>("SELECT MIN(next_read_at) AS at FROM tracked").one().at;
  return v === null || v === undefined ? null : Number(v);
}

/**
 * A read (list page) found the object as it was: the next read backs off like any unchanged
 * read (`core/converge/schedule.ts`), or the row ends at its window.
 *
 * @example
 * readUnchanged(sql, row, Date.now());
 */
export function readUnchanged(sql: SqlStorage, row: Tracked, now: number): void {
  const gap = nextGap(row.gapMs, false);
  const next = nextReadAt({ now, gap, watched: row.watched, keepUntil: row.keepUntil });
  if (next === null) {
    sql.exec("DELETE FROM tracked WHERE kind = ? AND id = ?", row.kind, row.id);
    return;
  }
  sql.exec(
    "UPDATE tracked SET next_read_at = ?, gap_ms = ? WHERE kind = ? AND id = ?",
    next,
    gap,
    row.kind,
    row.id,
  );
}

/**
 * A record was handed to the object (its fingerprint kept); until the object registers its
 * new schedule, the next read waits one first gap, so a failed hand-over is retried.
 */
export function handed(sql: SqlStorage, row: Tracked, fingerprint: string, retryAt: number): void {
  sql.exec(
    "UPDATE tracked SET fingerprint = ?, next_read_at = MAX(next_read_at, ?) WHERE kind = ? AND id = ?",
    fingerprint,
    retryAt,
    row.kind,
    row.id,
  );
}

/** Puts a due row's read off until `at` (the budget had no call for it now). */
export function deferTracked(sql: SqlStorage, row: Tracked, at: number): void {
  sql.exec(
    "UPDATE tracked SET next_read_at = MAX(next_read_at, ?) WHERE kind = ? AND id = ?",
    at,
    row.kind,
    row.id,
  );
}

/** Counts rows, and those due at `now` (the tests' `tracked`: `test/support/worker-entry.ts`). */
export function trackedCounts(sql: SqlStorage, now: number): { rows: number; due: number } {
  const r = sql
    .exec<Row>(
      "SELECT COUNT(*) AS rows, SUM(CASE WHEN next_read_at <= ? THEN 1 ELSE 0 END) AS due FROM tracked",
      now,
    )
    .one();
  return { rows: Number(r.rows), due: Number(r.due ?? 0) };
}

/**
 * Makes every row due now (the tests' and the simulation's `sweepNow`: "time passed";
 * `test/support/worker-entry.ts`). No deployed code calls it: not in the bundle.
 */
export function makeAllDue(sql: SqlStorage, now: number): void {
  sql.exec("UPDATE tracked SET next_read_at = ? WHERE next_read_at > ?", now, now);
}
