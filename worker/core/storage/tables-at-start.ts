/**
 * @module
 * The tables of a Durable Object that has no migrations (the account's index, the reconciler),
 * created when the object starts.
 *
 * Invariant: the DDL runs under `blockConcurrencyWhile`, so no request reaches the object
 * before its tables exist; it is `CREATE … IF NOT EXISTS`, so every start may run it again.
 */

/**
 * Creates the object's tables before its first request (call it in the constructor).
 *
 * @example
 * constructor(ctx: DurableObjectState, env: CoreEnv) {
 *   super(ctx, env);
 *   createTablesAtStart(ctx, TRACKED_SCHEMA);
 * }
 */
export function createTablesAtStart(ctx: DurableObjectState, ddl: string): void {
  ctx.blockConcurrencyWhile(async () => {
    ctx.storage.sql.exec(ddl);
  });
}
