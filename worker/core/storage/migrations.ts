/**
 * @module
 * Numbered schema migrations of a Durable Object's SQLite tables. Each module that owns a
 * table owns its track of migrations (`outbox`, `followed`, `refunds`, …): a list of steps
 * numbered 1, 2, 3, … The object records, per track, the last step it applied
 * (`schema_migrations`), and on every start runs only the steps after it, in order, in the
 * same write as its DDL.
 *
 * Invariants:
 * - a track's steps are numbered 1..n without gaps, in order (checked before any runs), and a
 *   recorded number never goes down (an older deployment meeting a newer number runs nothing);
 * - an object made before this table existed records nothing (version 0) and may hold any
 *   earlier shape of its tables: the first steps of each track are therefore idempotent
 *   (`addColumn` checks the column first). The DDL always makes the newest shape, so on a
 *   new object (no table of its own yet) no step runs: only every track's number is recorded;
 * - a step that throws throws out of `migrate` with nothing after it applied or recorded;
 * - `ensureTables` runs the DDL only when the object recorded no DDL, another DDL (by its
 *   fingerprint, the `ddl` row, which is no track) or a track behind its newest step: a later
 *   start of a current object prepares no DDL. Why: workerd keeps every statement an object
 *   ever ran prepared for the object's lifetime (about 2 KB each, measured), and the DDL is
 *   a dozen statements; objects are loaded again each time a watcher or an alarm wakes them.
 */

/** One numbered step of a track. */
export interface Migration {
  readonly version: number;
  /** What the step does, in words (for the reader and the error). */
  readonly does: string;
  up(sql: SqlStorage): void;
}

/** A module's migrations, under the name its version is recorded by. */
export interface MigrationTrack {
  readonly track: string;
  readonly steps: readonly Migration[];
}

/** DDL of the table that records each track's last applied step (idempotent). */
export const MIGRATIONS_SCHEMA = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  track TEXT PRIMARY KEY,
  version INTEGER NOT NULL
);`;

/**
 * Adds a column to a table unless it already has it (idempotent, for steps that may meet an
 * object of any earlier shape).
 *
 * @example
 * addColumn(sql, "refunds", "address", "TEXT");
 */
export function addColumn(sql: SqlStorage, table: string, column: string, type: string): void {
  const columns = sql.exec<{ name: string }>(`PRAGMA table_info(${table})`).toArray();
  if (!columns.some((c) => c.name === column))
    sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}

/**
 * A step that adds one column (idempotent: `addColumn`), the usual migration.
 *
 * @example
 * const step = columnAdded(1, "refunds", "address", "TEXT", "where the refund was paid");
 */
export function columnAdded(
  version: number,
  table: string,
  column: string,
  type: string,
  why: string,
): Migration {
  return {
    version,
    does: `adds ${table}.${column} (${why})`,
    up: (sql) => addColumn(sql, table, column, type),
  };
}

/**
 * The last applied step of every track this object recorded (run after `MIGRATIONS_SCHEMA`).
 *
 * @example
 * appliedVersions(sql).get("outbox"); // 2
 */
export function appliedVersions(sql: SqlStorage): Map<string, number> {
  const versions = recordedRows(sql);
  versions.delete(DDL_ROW);
  return versions;
}

/** Every row of `schema_migrations`, the DDL's fingerprint included. */
function recordedRows(sql: SqlStorage): Map<string, number> {
  const rows = sql
    .exec<{ track: string; version: number }>("SELECT track, version FROM schema_migrations")
    .toArray();
  return new Map(rows.map((r) => [String(r.track), Number(r.version)]));
}

/** The `schema_migrations` row that records which DDL made the tables (not a track). */
const DDL_ROW = "ddl";

/**
 * A 32-bit FNV-1a fingerprint of `text`: tells one DDL from another (not a security hash).
 *
 * @example
 * ddlFingerprint("CREATE TABLE t (a)"); // a number in 0..2^32-1
 */
export function ddlFingerprint(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Makes the tables (`ddl`, which must include `MIGRATIONS_SCHEMA`) and runs the steps of
 * `tracks` not applied yet, then records the DDL's fingerprint; runs nothing when this object
 * already recorded this very DDL and every track at its newest step. Answers whether it ran.
 * Synchronous: call it inside the write (or `blockConcurrencyWhile`) that needs the tables.
 *
 * @example
 * ensureTables(sql, DDL + MIGRATIONS_SCHEMA, [OUTBOX_MIGRATIONS]); // true on a new object
 * ensureTables(sql, DDL + MIGRATIONS_SCHEMA, [OUTBOX_MIGRATIONS]); // false: current
 */
export function ensureTables(
  sql: SqlStorage,
  ddl: string,
  tracks: readonly MigrationTrack[],
): boolean {
  const fingerprint = ddlFingerprint(ddl);
  const { tables, recorded } = sql
    .exec<{ tables: number; recorded: number }>(
      `SELECT count(*) AS tables, coalesce(sum(name = 'schema_migrations'), 0) AS recorded
       FROM sqlite_master
       WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
    )
    .one();
  if (recorded > 0) {
    const rows = recordedRows(sql);
    const current =
      rows.get(DDL_ROW) === fingerprint &&
      tracks.every(({ track, steps }) => (rows.get(track) ?? 0) >= steps.length);
    if (current) return false;
  }
  sql.exec(ddl);
  // A database with no table of its own (only the runtime's: `_cf_*`, `sqlite_*`) is a new
  // object: the DDL just made the newest shape, so every step would find nothing to do (each
  // would still prepare its checks, `PRAGMA table_info`): only the numbers are recorded.
  if (tables === 0) recordNewest(sql, tracks, fingerprint);
  else {
    migrate(sql, tracks);
    sql.exec(
      "INSERT OR REPLACE INTO schema_migrations (track, version) VALUES (?, ?)",
      DDL_ROW,
      fingerprint,
    );
  }
  return true;
}

/** Refuses a track whose steps are not numbered 1..n in order. */
function checkNumbering({ track, steps }: MigrationTrack): void {
  steps.forEach((step, i) => {
    if (step.version !== i + 1)
      throw new Error(`migrations of ${track}: step ${i + 1} is numbered ${step.version}`);
  });
}

/**
 * Records every track at its newest step without running one (a new object's tables), and the
 * DDL's fingerprint, in one statement: a new object's first write is on every create's path.
 */
function recordNewest(
  sql: SqlStorage,
  tracks: readonly MigrationTrack[],
  fingerprint: SqlStorageValue,
): void {
  for (const track of tracks) checkNumbering(track);
  const rows: SqlStorageValue[] = tracks.flatMap((t) => [t.track, t.steps.length]);
  rows.push(DDL_ROW, fingerprint);
  const values = Array.from({ length: rows.length / 2 }, () => "(?, ?)").join(", ");
  sql.exec(`INSERT OR REPLACE INTO schema_migrations (track, version) VALUES ${values}`, ...rows);
}

/**
 * Runs every step of `tracks` this object has not applied yet, in order, and records each
 * track's new number; answers how many steps ran. Run it after the DDL (which makes the
 * `schema_migrations` table), inside the same synchronous write.
 *
 * @example
 * sql.exec(DDL + MIGRATIONS_SCHEMA);
 * migrate(sql, [OUTBOX_MIGRATIONS, FOLLOWED_MIGRATIONS]);
 */
export function migrate(sql: SqlStorage, tracks: readonly MigrationTrack[]): number {
  const applied = appliedVersions(sql);
  let ran = 0;
  for (const { track, steps } of tracks) {
    checkNumbering({ track, steps });
    const from = applied.get(track) ?? 0;
    // A newer deployment applied more (this one was rolled back to): its steps only added.
    if (from >= steps.length) continue;
    for (const step of steps.slice(from)) step.up(sql);
    sql.exec(
      "INSERT OR REPLACE INTO schema_migrations (track, version) VALUES (?, ?)",
      track,
      steps.length,
    );
    ran += steps.length - from;
  }
  return ran;
}
