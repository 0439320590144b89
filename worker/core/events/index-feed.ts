/**
 * @module
 * The index feed: an outbox addressed to the account's index object (`core/account/account-object.ts`)
 * rather than to the merchant. Each object that keeps state the merchant lists across objects
 * (an order's summary, each notification's delivery state) writes the newest version of that
 * row here, in the same SQLite transaction as the change, and its alarm delivers the feed.
 *
 * Invariants:
 * - one row per key (`order`, or a notification's `evt_` id); `version` only grows, and only
 *   when the body changes, so the index can refuse a stale row (it keeps the highest version);
 * - rows are never deleted (a deleted row would restart its version at 1 and be refused);
 * - a row is owed while `sent_version < version`; delivery retries with backoff (capped at
 *   5 min) and never gives up, so the index converges after any fault;
 * - the object's alarm wakes for the feed `FEED_COALESCE_MS` after a row is due (`feedWakeAt`),
 *   so the bookkeeping of several changes travels together, after the answers that made them.
 */

/** DDL of the feed table (idempotent; part of every object's shared tables). */
export const INDEX_FEED_SCHEMA = `
CREATE TABLE IF NOT EXISTS index_feed (
  key TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  version INTEGER NOT NULL,
  body TEXT NOT NULL,
  sent_version INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL
);
`;

/**
 * What the index holds: an order's summary, one notification's delivery state, or a followed
 * object's facts for the reconciler to take (`facts-feed.ts`).
 */
export type FeedKind = "order" | "notification" | "facts";

/** One owed row, as delivered to the index. */
export interface FeedEntry {
  key: string;
  kind: FeedKind;
  version: number;
  /** The row's JSON (`OrderSummary`, `NotificationView` or `FactsUpdate`). */
  body: string;
}

/** Most rows one delivery carries (the rest go in the next call of the same pass). */
export const FEED_BATCH = 100;

/** Retry delay after `attempts` failed deliveries: 1 s, 2 s, … capped at 5 minutes. */
export function feedBackoffMs(attempts: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempts - 1), 300_000);
}

type Row = Record<string, SqlStorageValue>;

/**
 * Writes the newest body of `key`, due now. A body equal to the one already there changes
 * nothing (no new version, nothing owed): callers may report liberally.
 *
 * @example
 * feedPut(sql, "order", "order", JSON.stringify(summary), Date.now());
 */
export function feedPut(sql: SqlStorage, key: string, kind: FeedKind, body: string, now: number) {
  sql.exec(
    `INSERT INTO index_feed (key, kind, version, body, next_at) VALUES (?, ?, 1, ?, ?)
     ON CONFLICT(key) DO UPDATE SET version = version + 1, body = excluded.body,
       next_at = excluded.next_at, attempts = 0
     WHERE index_feed.body <> excluded.body`,
    key,
    kind,
    body,
    now,
  );
}

/** True when the feed already holds a row for `key` (delivered or not). */
export function feedHas(sql: SqlStorage, key: string): boolean {
  return sql.exec("SELECT 1 FROM index_feed WHERE key = ?", key).toArray().length > 0;
}

/**
 * Delivers every owed row that is due, `FEED_BATCH` per `send` call; a failed call backs its
 * rows off and ends the pass. A row rewritten while its call was in flight stays owed (only
 * the version that was sent is marked).
 *
 * @example
 * await deliverFeed(sql, (entries) => accountStub(env, config).applyFeed(source, entries), Date.now());
 */
export async function deliverFeed(
  sql: SqlStorage,
  send: (entries: FeedEntry[]) => Promise<unknown>,
  now: number,
): Promise<void> {
  for (;;) {
    const due = sql
      .exec<Row>(
        "SELECT key, kind, version, body, attempts FROM index_feed WHERE sent_version < version AND next_at <= ? ORDER BY next_at, key LIMIT ?",
        now,
        FEED_BATCH,
      )
      .toArray();
    if (due.length === 0) return;
    const entries = due.map((r) => ({
      key: String(r.key),
      kind: String(r.kind) as FeedKind,
      version: Number(r.version),
      body: String(r.body),
    }));
    try {
      await send(entries);
    } catch {
      for (const r of due) {
        const attempts = Number(r.attempts) + 1;
        sql.exec(
          "UPDATE index_feed SET attempts = ?, next_at = ? WHERE key = ?",
          attempts,
          now + feedBackoffMs(attempts),
          String(r.key),
        );
      }
      return;
    }
    // One statement marks the whole batch: each row only up to the version that was sent.
    sql.exec(
      `UPDATE index_feed SET sent_version = MAX(sent_version, json_extract(s.value, '$[1]')), attempts = 0
       FROM json_each(?) AS s WHERE index_feed.key = json_extract(s.value, '$[0]')`,
      JSON.stringify(entries.map((e) => [e.key, e.version])),
    );
    if (due.length < FEED_BATCH) return;
  }
}

/**
 * How long after its earliest owed row is due an object's alarm wakes for the feed. The changes
 * of a checkout's first moments (its open, the widget's stream, the currency lock) then reach
 * the index in one delivery and one alarm run instead of one each, and that run does not compete
 * with the answer of the change that wrote the row (the shopper's create). An alarm that runs
 * sooner for another reason (a notification, a read) delivers every due row anyway; the index
 * still learns each change within about a second.
 */
export const FEED_COALESCE_MS = 1_000;

/**
 * When the object's alarm should wake for the feed: `FEED_COALESCE_MS` after its earliest owed
 * row is due; null when none is owed.
 *
 * @example
 * const wake = feedWakeAt(sql); // nextFeedAt(sql) + 1 000, or null
 */
export function feedWakeAt(sql: SqlStorage): number | null {
  const due = nextFeedAt(sql);
  return due === null ? null : due + FEED_COALESCE_MS;
}

/** When the next owed row is due, or null when none is owed. */
export function nextFeedAt(sql: SqlStorage): number | null {
  const next = sql
    .exec<Row>("SELECT MIN(next_at) AS next FROM index_feed WHERE sent_version < version")
    .one().next;
  return next === null || next === undefined ? null : Number(next);
}

/** Rows still owed to the index (tests and the simulation wait for 0). */
export function feedOwed(sql: SqlStorage): number {
  return Number(
    sql.exec<Row>("SELECT COUNT(*) AS n FROM index_feed WHERE sent_version < version").one().n,
  );
}
