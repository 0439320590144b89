/**
 * @module
 * The account index's `followed_facts` table: the facts feed rows objects deliver
 * (`core/events/facts-feed.ts`), kept until the reconciler takes them at the start of a sweep.
 * One row per followed upstream object (the feed key `facts|<kind>|<id>`), only ever moved to a
 * higher version; taking a row deletes it, so the table holds only what changed since the last
 * sweep (bounded by the objects followed, and by `MAX_TAKEN` per take).
 */

/** DDL (part of the account's schema). */
export const FOLLOWED_FACTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS followed_facts (
  key TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  source TEXT NOT NULL,
  body TEXT NOT NULL
);
`;

/** Most rows one take answers (the rest wait for the next sweep). */
export const MAX_TAKEN = 5_000;

/**
 * Keeps a delivered facts row unless a newer version of it is already held.
 *
 * @example
 * putFollowedFacts(sql, "order:ab12…", "facts|invoice|inv_1", 3, body);
 */
export function putFollowedFacts(
  sql: SqlStorage,
  source: string,
  key: string,
  version: number,
  body: string,
): void {
  sql.exec(
    `INSERT INTO followed_facts (key, version, source, body) VALUES (?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET version = excluded.version, source = excluded.source,
       body = excluded.body WHERE excluded.version > followed_facts.version`,
    key,
    version,
    source,
    body,
  );
}

/**
 * Answers and deletes up to `limit` held rows (their JSON bodies), in one step.
 *
 * @example
 * const bodies = takeFollowedFacts(sql, MAX_TAKEN);
 */
export function takeFollowedFacts(sql: SqlStorage, limit: number): string[] {
  // One statement: the rows answered are exactly the rows deleted (no select-then-delete pass).
  return sql
    .exec<{ body: string }>(
      `DELETE FROM followed_facts WHERE key IN (SELECT key FROM followed_facts LIMIT ?)
       RETURNING body`,
      limit,
    )
    .toArray()
    .map((r) => r.body);
}
