/**
 * @module
 * The account index's followed facts: owns the `followed_facts` table (described once here,
 * over `core/storage/table.ts`): the facts feed rows objects deliver
 * (`core/events/facts-feed.ts`), kept until the reconciler takes them at the start of a sweep.
 * One row per followed upstream object (the feed key `facts|<kind>|<id>`), only ever moved to a
 * higher version; taking a row deletes it, so the table holds only what changed since the last
 * sweep (bounded by the objects followed, and by `MAX_TAKEN` per take).
 */
import { integer, primaryKey, Table, text } from "../storage/table.ts";

/** One followed object's newest facts, not yet taken. */
export interface FollowedFactsRow {
  /** The feed key, `facts|<kind>|<id>`: one row per followed object. */
  key: string;
  /** The version of the feed row this came from: only a higher one replaces it. */
  version: number;
  /** The object that fed it. */
  source: string;
  /** The facts as JSON, exactly as fed (the reconciler parses them). */
  body: string;
}

/**
 * The table (part of the account's schema).
 *
 * @example
 * sql.exec(FOLLOWED_FACTS.ddl);
 */
export const FOLLOWED_FACTS = new Table<FollowedFactsRow>("followed_facts", {
  key: primaryKey(text("key")),
  version: integer("version"),
  source: text("source"),
  body: text("body"),
});

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
  FOLLOWED_FACTS.upsert(
    sql,
    { key, version, source, body },
    "key",
    ["version", "source", "body"],
    "version",
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
