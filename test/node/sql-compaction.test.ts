/**
 * The worker build's SQL compaction (`scripts/sql-compaction.ts`): only SQL templates change,
 * only their whitespace outside quotes, every line keeps its number, and every statement of
 * `worker/` means the same to SQLite: the same tables, columns and indexes for the DDL, the
 * same `EXPLAIN` program for the rest.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compactSqlTemplates } from "../../scripts/sql-compaction.ts";
import { compactSql } from "../../scripts/worker-build.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER_FILES = (readdirSync(join(ROOT, "worker"), { recursive: true }) as string[])
  .filter((f) => f.endsWith(".ts"))
  .map((f) => join(ROOT, "worker", f));

const compact = (source: string) => compactSqlTemplates(source, "t.ts").code;

/** The values of a file's SQL templates that have no `${…}`, in order. */
function plainSqlTemplates(source: string): string[] {
  const file = ts.createSourceFile("t.ts", source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNoSubstitutionTemplateLiteral(node) && /^\s*[A-Z]{4,}\b/.test(node.text))
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every schema an object runs on start, as the worker's modules build them. */
const SCHEMAS = `
export { ORDER_SCHEMA } from "./worker/order/schema.ts";
export { PAYOUT_SCHEMA } from "./worker/payout/store.ts";
export { DEPOSIT_SCHEMA } from "./worker/deposit/store.ts";
export { ACCOUNT_SCHEMA } from "./worker/core/account/schema.ts";
export { TRACKED_SCHEMA } from "./worker/core/reconciler/tracked.ts";
export { MIGRATIONS_SCHEMA } from "./worker/core/storage/migrations.ts";
export { FOLLOWED_SCHEMA } from "./worker/core/converge/followed.ts";
export { EVENT_LOG_SCHEMA } from "./worker/core/events/event-log.ts";
`;

/** The schemas' values, from the modules bundled with or without the build's compaction. */
async function schemas(plugins: Plugin[]): Promise<Record<string, string>> {
  const bundle = await build({
    stdin: { contents: SCHEMAS, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
    plugins,
  });
  const url = `data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0]!.text).toString("base64")}`;
  return (await import(url)) as Record<string, string>;
}

/** What SQLite knows of a database's tables and indexes (never the statements' text). */
function schemaOf(db: DatabaseSync): unknown {
  const tables = db
    .prepare("SELECT name, type, tbl_name FROM sqlite_master ORDER BY name")
    .all() as { name: string; type: string }[];
  return tables.map((t) => ({
    ...t,
    columns: t.type === "table" ? db.prepare(`PRAGMA table_xinfo("${t.name}")`).all() : [],
    indexes: t.type === "table" ? db.prepare(`PRAGMA index_list("${t.name}")`).all() : [],
    keys: t.type === "index" ? db.prepare(`PRAGMA index_xinfo("${t.name}")`).all() : [],
  }));
}

/** SQLite's program for a statement, or its error. */
function explain(db: DatabaseSync, sql: string): unknown {
  try {
    return db.prepare(`EXPLAIN ${sql}`).all();
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("SQL template compaction (worker build)", () => {
  it("turns each whitespace run of a SQL template into one space, keeping every line", () => {
    const source = [
      "const q = `",
      "  SELECT a,",
      "         b",
      "  FROM t WHERE s = 'two  spaces' AND n = \"a  b\"`;",
      "const next = 1;",
    ].join("\n");
    const out = compact(source);
    expect(out).toBe(
      [
        "const q = ` SELECT a, b FROM t WHERE s = 'two  spaces' AND n = \"a  b\"`",
        "",
        "",
        ";",
        "const next = 1;",
      ].join("\n"),
    );
    expect(out.split("\n").length).toBe(source.split("\n").length);
  });

  it("compacts around interpolations and inside SQL templates nested in them; leaves others alone", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source
    const sse = "const frame = `event: snapshot\\ndata:  ${x}\n\n`;";
    expect(compact(sse)).toBe(sse);
    const notSql = "const msg = `Select  a\n  currency`; const tagged = sql`SELECT  1`;";
    expect(compact(notSql)).toBe(notSql);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source
    expect(compact("q(`UPDATE t  SET ${col} =  ?\n WHERE ${`SELECT  1`}`);")).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source
      "q(`UPDATE t SET ${col} = ? WHERE ${`SELECT 1`}`\n);",
    );
    expect(compact("q(`SELECT 1 FROM t WHERE n LIKE '\\\\_%'  ESCAPE '\\\\'`);")).toBe(
      "q(`SELECT 1 FROM t WHERE n LIKE '\\\\_%' ESCAPE '\\\\'`);",
    );
  });

  it("refuses a SQL template it cannot compact safely", () => {
    expect(() => compact("q(`SELECT a -- the a\n FROM t`);")).toThrow(/t\.ts:1: .*comment/);
    expect(() => compact("q(`SELECT a /* the a */ FROM t`);")).toThrow(/comment/);
    expect(() => compact("q(`SELECT a \\\n FROM t`);")).toThrow(/escapes a space/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source
    expect(() => compact("q(`SELECT '${a}'`);")).toThrow(/quote open/);
  });

  it("keeps every statement in worker/ the same to SQLite", async () => {
    const original: string[] = [];
    const compacted: string[] = [];
    let changed = 0;
    for (const path of WORKER_FILES) {
      const source = readFileSync(path, "utf8");
      const result = compactSqlTemplates(source, relative(ROOT, path));
      changed += result.compacted;
      // Lines keep their numbers: the source map stays true.
      expect(result.code.split("\n").length).toBe(source.split("\n").length);
      const before = plainSqlTemplates(source);
      const after = plainSqlTemplates(result.code);
      expect(after.length).toBe(before.length);
      original.push(...before);
      compacted.push(...after);
    }
    // Floors that keep the comparison below from checking nothing (they shrink as statements by
    // hand give way to tables described over `core/storage/table.ts`: 17 compacted, 9 that are
    // not DDL, when the account's tables moved there).
    expect(changed).toBeGreaterThanOrEqual(5);
    // Every other statement: the same program, against every table of every object.
    const db = new DatabaseSync(":memory:");
    for (const ddl of Object.values(await schemas([]))) db.exec(ddl);
    const statements = original.filter((sql) => !/^\s*CREATE\b/.test(sql));
    expect(statements.length).toBeGreaterThanOrEqual(5);
    for (const [i, sql] of original.entries()) {
      if (/^\s*CREATE\b/.test(sql)) continue;
      const before = explain(db, sql);
      expect(before).toBeInstanceOf(Array);
      expect(explain(db, compacted[i]!)).toEqual(before);
    }
  });

  it("keeps every object's schema the same: tables, columns, indexes", async () => {
    const [plain, built] = [await schemas([]), await schemas([compactSql])];
    expect(Object.keys(built).sort()).toEqual(Object.keys(plain).sort());
    expect(
      Object.entries(built).filter(([name, ddl]) => ddl !== plain[name]).length,
    ).toBeGreaterThan(3);
    for (const name of Object.keys(plain)) {
      const [a, b] = [new DatabaseSync(":memory:"), new DatabaseSync(":memory:")];
      a.exec(plain[name]!);
      b.exec(built[name]!);
      const schema = schemaOf(a) as unknown[];
      expect(schema.length).toBeGreaterThan(0);
      expect(schemaOf(b)).toEqual(schema);
    }
  });
});
