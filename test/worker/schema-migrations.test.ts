/**
 * Numbered migrations (`worker/core/storage/migrations.ts`): an order object stored on the old
 * shape (before `schema_migrations`, before the columns later versions added) is brought to
 * the newest shape on its next start and keeps its rows; `migrate` runs each step once, in
 * order, and refuses a track whose steps are misnumbered.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  appliedVersions,
  ddlFingerprint,
  ensureTables,
  MIGRATIONS_SCHEMA,
  type MigrationTrack,
  migrate,
} from "../../worker/core/storage/migrations.ts";
import { ledgerOf, openCheckout, uniqueSub } from "./helpers.ts";

type Columns = Record<string, string[]>;

/** The column names of the tables later versions changed. */
function columnsOf(sql: SqlStorage): Columns {
  const out: Columns = {};
  for (const table of ["refunds", "outbox", "upstream_objects", "order_info"]) {
    out[table] = sql
      .exec<{ name: string }>(`PRAGMA table_info(${table})`)
      .toArray()
      .map((c) => String(c.name));
  }
  return out;
}

describe("an order object stored on the old shape", () => {
  it("is migrated on its next start: the added columns, every track's number, its rows kept", async () => {
    const sub = uniqueSub("mig-old");
    const { body } = await openCheckout({ sub });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const newest = await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      const columns = columnsOf(sql);
      // The tables as objects made before these versions hold them.
      sql.exec("ALTER TABLE refunds DROP COLUMN address");
      sql.exec("ALTER TABLE outbox DROP COLUMN last_attempt_at");
      sql.exec("ALTER TABLE outbox DROP COLUMN attempt_limit");
      sql.exec("ALTER TABLE upstream_objects DROP COLUMN acked_at");
      sql.exec("ALTER TABLE upstream_objects DROP COLUMN seen");
      sql.exec("ALTER TABLE upstream_objects DROP COLUMN told");
      sql.exec("DROP TABLE schema_migrations");
      sql.exec(
        `INSERT INTO refunds (order_id, number, crypto_code, amount, status, withdrawal_id, updated_at)
         VALUES ('cc-old-refund', 1, 'TRX', '5', 'failed', 'wd_old', 'then')`,
      );
      return columns;
    });
    const before = await ledgerOf(sub);
    // An order made before x402 (after its ledger was read: this instance's code has them):
    // no wallet_paid, no x402_payments.
    await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("ALTER TABLE order_info DROP COLUMN wallet_paid");
      state.storage.sql.exec("DROP TABLE x402_payments");
    });
    await evictDurableObject(stub);

    const after = await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      return {
        columns: columnsOf(sql),
        versions: Object.fromEntries(appliedVersions(sql)),
        refunds: sql.exec("SELECT order_id, address FROM refunds").toArray(),
      };
    });
    expect(after.columns).toEqual(newest);
    expect(after.versions).toEqual({ outbox: 2, followed: 3, refunds: 1, order_info: 1 });
    expect(after.refunds).toEqual([{ order_id: "cc-old-refund", address: null }]);
    const ledger = await ledgerOf(sub);
    expect(ledger.attempts).toEqual(before.attempts);
    expect(ledger.refunds.map((r) => r.orderId)).toEqual(["cc-old-refund"]);
  });

  it("a new object records every track's newest number at once", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("mig-new") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const versions = await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) =>
      Object.fromEntries(appliedVersions(state.storage.sql)),
    );
    expect(versions).toEqual({ outbox: 2, followed: 3, refunds: 1, order_info: 1 });
  });
});

describe("migrate", () => {
  it("runs each step once, in order, only those after the recorded number", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("mig-run") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const result = await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      const ran: number[] = [];
      const step = (version: number) => ({
        version,
        does: `step ${version}`,
        up: () => ran.push(version),
      });
      const two: MigrationTrack = { track: "scratch", steps: [step(1), step(2)] };
      const three: MigrationTrack = { track: "scratch", steps: [step(1), step(2), step(3)] };
      const counts = [migrate(sql, [two]), migrate(sql, [two]), migrate(sql, [three])];
      // A deployment rolled back to fewer steps runs none and keeps the newer number.
      counts.push(migrate(sql, [two]));
      const version = appliedVersions(sql).get("scratch");
      let refused = "";
      try {
        migrate(sql, [{ track: "gap", steps: [step(1), step(3)] }]);
      } catch (error) {
        refused = (error as Error).message;
      }
      return { ran, counts, version, refused, gap: appliedVersions(sql).get("gap") ?? null };
    });
    expect(result.ran).toEqual([1, 2, 3]);
    expect(result.counts).toEqual([2, 0, 1, 0]);
    expect(result.version).toBe(3);
    expect(result.refused).toBe("migrations of gap: step 2 is numbered 3");
    expect(result.gap).toBeNull();
  });
});

/** SQL texts every object in this isolate runs while `fn` runs (exec wrapped on its prototype). */
async function statementsDuring(fn: () => Promise<void>): Promise<string[]> {
  const probe = env.ORDERS.get(env.ORDERS.idFromName(uniqueSub("exec-probe")));
  const proto = await runInDurableObject(
    probe,
    (_o: unknown, state: DurableObjectState) =>
      Object.getPrototypeOf(state.storage.sql) as { exec: (...args: unknown[]) => unknown },
  );
  const exec = proto.exec;
  const seen: string[] = [];
  proto.exec = function (this: unknown, query: unknown, ...args: unknown[]) {
    seen.push(String(query));
    return exec.call(this, query, ...args);
  };
  try {
    await fn();
  } finally {
    proto.exec = exec;
  }
  return seen;
}

describe("a later start of an object (ensureTables)", () => {
  it("runs no DDL when the object recorded this DDL and every migration", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("ddl-current") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    await evictDurableObject(stub);
    const seen = await statementsDuring(async () => {
      await runInDurableObject(stub, () => undefined);
    });
    // The start did read its schema record (it was constructed), and made nothing.
    expect(seen).toContain("SELECT track, version FROM schema_migrations");
    expect(seen.filter((q) => /CREATE TABLE/i.test(q))).toEqual([]);
  });

  it("runs the DDL again when the recorded DDL differs: a table it lacks is made", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("ddl-changed") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      // As if made by a deployment whose DDL had no `refund_hold` table.
      sql.exec("DROP TABLE refund_hold");
      sql.exec("UPDATE schema_migrations SET version = 1 WHERE track = 'ddl'");
    });
    await evictDurableObject(stub);
    const tables = await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => ({
      hold: state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'refund_hold'")
        .toArray().length,
      versions: Object.fromEntries(appliedVersions(state.storage.sql)),
    }));
    expect(tables.hold).toBe(1);
    expect(tables.versions).toEqual({ outbox: 2, followed: 3, refunds: 1, order_info: 1 });
  });

  it("a new object's open runs no migration step: only the numbers are recorded", async () => {
    const seen = await statementsDuring(async () => {
      const opened = await openCheckout({ sub: uniqueSub("ddl-new") });
      expect(opened.status).toBe(201);
    });
    // The DDL ran (the object is new) and no step checked a column (`addColumn`'s PRAGMA).
    expect(seen.filter((q) => /CREATE TABLE IF NOT EXISTS attempts/i.test(q))).toHaveLength(1);
    expect(seen.filter((q) => /PRAGMA table_info/i.test(q))).toEqual([]);
  });

  it("ensureTables: a database with no table of its own runs no step, one with a table runs them", async () => {
    const ran: string[] = [];
    const track: MigrationTrack = {
      track: "scratch",
      steps: [{ version: 1, does: "probe", up: () => ran.push("up") }],
    };
    const ddl = `CREATE TABLE IF NOT EXISTS scratch (a TEXT);${MIGRATIONS_SCHEMA}`;
    const fresh = env.ORDERS.get(env.ORDERS.idFromName(uniqueSub("ddl-fresh")));
    const onFresh = await runInDurableObject(fresh, (_o: unknown, state: DurableObjectState) => {
      // The runtime's own key-value table (a create writes its claims there first) is no table
      // of the object's.
      state.storage.kv.put("pending_claims", { amount: "1", currency: "EUR" });
      const made = ensureTables(state.storage.sql, ddl, [track]);
      return { made, versions: Object.fromEntries(appliedVersions(state.storage.sql)) };
    });
    expect(onFresh).toEqual({ made: true, versions: { scratch: 1 } });
    expect(ran).toEqual([]);
    const old = env.ORDERS.get(env.ORDERS.idFromName(uniqueSub("ddl-old")));
    const onOld = await runInDurableObject(old, (_o: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("CREATE TABLE scratch (a TEXT)"); // made before migrations were kept
      ensureTables(state.storage.sql, ddl, [track]);
      return Object.fromEntries(appliedVersions(state.storage.sql));
    });
    expect(onOld).toEqual({ scratch: 1 });
    expect(ran).toEqual(["up"]);
  });

  it("the fingerprint tells DDLs apart and is stable", () => {
    expect(ddlFingerprint("CREATE TABLE a (x)")).toBe(ddlFingerprint("CREATE TABLE a (x)"));
    expect(ddlFingerprint("CREATE TABLE a (x)")).not.toBe(ddlFingerprint("CREATE TABLE a (y)"));
    expect(ddlFingerprint("")).toBe(0x811c9dc5);
  });
});
