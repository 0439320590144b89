/**
 * @module
 * An object's SQLite schema: its own tables' DDL and numbered migrations, the shared tables
 * every object has (outbox, followed objects, the migrations' record), and whether the
 * object exists at all (its marker table).
 *
 * Invariants:
 * - an object that never opened (a read of an unknown id) creates no storage: `ensure()` runs
 *   in the call that creates the business object, and on later constructions only when the
 *   marker table exists (`stored()`);
 * - `ensure()` is idempotent: the DDL makes the newest shape and the numbered migrations not
 *   yet applied bring older tables to it (`core/storage/migrations.ts`): the shared tracks
 *   first, then the object's own; a start that finds this DDL recorded and every migration
 *   applied runs none of it (`ensureTables`: workerd keeps every statement an object ran
 *   prepared for its lifetime, so a skipped DDL is memory saved per loaded object).
 */
import { FOLLOWED_MIGRATIONS, FOLLOWED_SCHEMA } from "../converge/followed.ts";
import type { FollowerNamespace } from "../reconciler/reconciler-rpc.ts";
import { ensureTables, MIGRATIONS_SCHEMA, type MigrationTrack } from "../storage/migrations.ts";
import type { NotifierKind } from "./notifier-rpc.ts";
import { OUTBOX_MIGRATIONS } from "./outbox-store.ts";

/**
 * The schema of an object kind: its DDL, the table whose presence means "this object exists",
 * and what kind of notification source it is (its name in the account's notification log).
 */
export interface ObjectSchema {
  ddl: string;
  marker: string;
  notifier: NotifierKind;
  /** The binding of this object's namespace (the reconciler calls it back through it). */
  namespace: FollowerNamespace;
  /** The numbered migrations of the object's own tables (run after the shared tracks). */
  migrations?: readonly MigrationTrack[];
}

/** Every object's shared tables' migrations: the outbox's, then the followed objects'. */
const SHARED_MIGRATIONS: readonly MigrationTrack[] = [OUTBOX_MIGRATIONS, FOLLOWED_MIGRATIONS];

/**
 * One object's schema, made on first use.
 *
 * @example
 * const schema = new StoredSchema(sql, ORDER_OBJECT_SCHEMA);
 * if (schema.stored()) schema.ensure(); // in the constructor, under blockConcurrencyWhile
 */
export class StoredSchema {
  readonly kind: ObjectSchema;
  readonly #sql: SqlStorage;
  #made = false;

  constructor(sql: SqlStorage, kind: ObjectSchema) {
    this.#sql = sql;
    this.kind = kind;
  }

  /** True once this object holds a business object (its tables were made in this run). */
  get made(): boolean {
    return this.#made;
  }

  /** True when the object's marker table is on disk (it was opened before). */
  stored(): boolean {
    const { n } = this.#sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
        this.kind.marker,
      )
      .one();
    return n > 0;
  }

  /**
   * Creates the tables (the newest shape) and runs the migrations not applied yet; nothing
   * when the object recorded this DDL and every track is current.
   */
  ensure(): void {
    ensureTables(this.#sql, this.kind.ddl + FOLLOWED_SCHEMA + MIGRATIONS_SCHEMA, [
      ...SHARED_MIGRATIONS,
      ...(this.kind.migrations ?? []),
    ]);
    this.#made = true;
  }
}
