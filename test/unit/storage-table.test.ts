/**
 * The table descriptions of `worker/core/storage/table.ts`: the DDL they make keeps the columns
 * and indexes objects stored before them already have (a renamed column would break every
 * stored top-up, payout or account index), a row reads back as written (nulls, JSON, flags,
 * integers), and a write names every column with its value in place.
 */
import { describe, expect, it } from "vitest";
import { ACCOUNT_SCHEMA } from "../../worker/core/account/schema.ts";
import {
  type Columns,
  decodeRow,
  flag,
  integer,
  json,
  optionalJson,
  optionalText,
  type Row,
  Table,
  text,
  writeRow,
} from "../../worker/core/storage/table.ts";
import { DEPOSIT_SCHEMA } from "../../worker/deposit/store.ts";
import { ORDER_SCHEMA } from "../../worker/order/schema.ts";
import { PAYOUT_SCHEMA } from "../../worker/payout/store.ts";

/** The `name TYPE` lines of one table in a schema. */
function columnsOf(schema: string, table: string): string[] {
  const body = schema.split(`CREATE TABLE IF NOT EXISTS ${table} (`)[1]?.split(");")[0] ?? "";
  return body
    .split(",\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The `CREATE INDEX` lines of one table in a schema, whitespace as one space. */
function indexesOf(schema: string, table: string): string[] {
  return schema
    .split("\n")
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter((line) => line.startsWith("CREATE INDEX") && line.includes(` ON ${table} (`));
}

describe("storage/table", () => {
  it("makes the deposit_info and payout_info tables stored objects already have", () => {
    expect(columnsOf(DEPOSIT_SCHEMA, "deposit_info")).toEqual([
      "id INTEGER PRIMARY KEY CHECK (id = 1)",
      "checkout_id TEXT NOT NULL",
      "top_up_id TEXT NOT NULL",
      "customer_id TEXT",
      "order_id TEXT NOT NULL",
      "deposit_id TEXT NOT NULL",
      "currency_json TEXT NOT NULL",
      "address TEXT NOT NULL",
      "minimum_amount TEXT",
      "expires_at TEXT",
      "status TEXT NOT NULL",
      "settlement_json TEXT",
      "created_at TEXT NOT NULL",
      "updated_at TEXT NOT NULL",
    ]);
    expect(columnsOf(PAYOUT_SCHEMA, "payout_info")).toEqual([
      "id INTEGER PRIMARY KEY CHECK (id = 1)",
      "request_json TEXT NOT NULL",
      "status TEXT NOT NULL",
      "quote_json TEXT NOT NULL",
      "quotes INTEGER NOT NULL",
      "withdrawal_json TEXT",
      "created_at TEXT NOT NULL",
      "updated_at TEXT NOT NULL",
    ]);
  });

  it("makes the order's tables as stored orders already have them", () => {
    expect(columnsOf(ORDER_SCHEMA, "order_info")).toEqual([
      "id INTEGER PRIMARY KEY CHECK (id = 1)",
      "checkout_id TEXT NOT NULL",
      "invoice_number TEXT NOT NULL",
      "amount TEXT NOT NULL",
      "currency TEXT NOT NULL",
      "fiat_dp INTEGER NOT NULL",
      "description TEXT",
      "customer_id TEXT",
      "return_url TEXT",
      "refund_currency TEXT",
      "refund_address TEXT",
      "created_at TEXT NOT NULL",
      // Added with x402; older orders get it from `ORDER_INFO_MIGRATIONS` step 1.
      "wallet_paid TEXT NOT NULL DEFAULT '0'",
    ]);
    expect(columnsOf(ORDER_SCHEMA, "attempts")).toEqual([
      "number INTEGER PRIMARY KEY",
      "order_id TEXT NOT NULL UNIQUE",
      "invoice_id TEXT NOT NULL UNIQUE",
      "fiat_amount TEXT NOT NULL",
      "status TEXT NOT NULL",
      "ended INTEGER NOT NULL DEFAULT 0",
      "payment_page_url TEXT NOT NULL",
      "expires_at TEXT",
      "currency_json TEXT",
      "crypto_expected TEXT",
      "crypto_received TEXT NOT NULL DEFAULT '0'",
      "address TEXT",
      "lock_expires_at TEXT",
      "crypto_applied TEXT NOT NULL DEFAULT '0'",
      "fiat_applied TEXT NOT NULL DEFAULT '0'",
      "fiat_overpaid TEXT NOT NULL DEFAULT '0'",
      "settlement_json TEXT",
      "updated_at TEXT NOT NULL",
    ]);
    expect(columnsOf(ORDER_SCHEMA, "payments")).toEqual([
      "id INTEGER PRIMARY KEY AUTOINCREMENT",
      "attempt INTEGER NOT NULL",
      "status TEXT NOT NULL",
      "crypto_code TEXT",
      "crypto_amount TEXT NOT NULL",
      "fiat_amount TEXT NOT NULL",
      "at TEXT NOT NULL",
    ]);
    expect(columnsOf(ORDER_SCHEMA, "refunds")).toEqual([
      "order_id TEXT PRIMARY KEY",
      "number INTEGER NOT NULL",
      "crypto_code TEXT NOT NULL",
      "amount TEXT NOT NULL",
      "status TEXT NOT NULL",
      "withdrawal_id TEXT",
      "updated_at TEXT NOT NULL",
      "address TEXT",
    ]);
    expect(columnsOf(ORDER_SCHEMA, "refund_hold")).toEqual([
      "id INTEGER PRIMARY KEY CHECK (id = 1)",
      "order_id TEXT NOT NULL",
      "reason TEXT NOT NULL",
      "started_at TEXT NOT NULL",
    ]);
  });

  it("makes the account's tables and indexes as stored account objects already have them", () => {
    expect(columnsOf(ACCOUNT_SCHEMA, "orders")).toEqual([
      "invoice_number TEXT PRIMARY KEY",
      "state TEXT NOT NULL",
      "currency TEXT NOT NULL",
      "crypto_code TEXT",
      "created_at TEXT NOT NULL",
      "version INTEGER NOT NULL",
      "source TEXT NOT NULL",
      "body TEXT NOT NULL",
    ]);
    expect(indexesOf(ACCOUNT_SCHEMA, "orders")).toEqual([
      "CREATE INDEX IF NOT EXISTS orders_created ON orders (created_at, invoice_number);",
      "CREATE INDEX IF NOT EXISTS orders_state ON orders (state, created_at, invoice_number);",
      "CREATE INDEX IF NOT EXISTS orders_currency ON orders (currency, created_at, invoice_number);",
      "CREATE INDEX IF NOT EXISTS orders_crypto ON orders (crypto_code, created_at, invoice_number);",
    ]);
    expect(columnsOf(ACCOUNT_SCHEMA, "notifications")).toEqual([
      "id TEXT PRIMARY KEY",
      "status TEXT NOT NULL",
      "invoice_number TEXT",
      "created_at TEXT NOT NULL",
      "version INTEGER NOT NULL",
      "source TEXT NOT NULL",
      "body TEXT NOT NULL",
    ]);
    expect(indexesOf(ACCOUNT_SCHEMA, "notifications")).toEqual([
      "CREATE INDEX IF NOT EXISTS notifications_created ON notifications (created_at, id);",
      "CREATE INDEX IF NOT EXISTS notifications_status ON notifications (status, created_at, id);",
      "CREATE INDEX IF NOT EXISTS notifications_invoice ON notifications (invoice_number, created_at, id);",
    ]);
    expect(columnsOf(ACCOUNT_SCHEMA, "webhook_minutes")).toEqual([
      "minute INTEGER PRIMARY KEY",
      "refused INTEGER NOT NULL",
    ]);
    expect(columnsOf(ACCOUNT_SCHEMA, "webhook_health")).toEqual([
      "id INTEGER PRIMARY KEY CHECK (id = 1)",
      "last_refused_at TEXT",
      "last_verified_at TEXT",
    ]);
    expect(columnsOf(ACCOUNT_SCHEMA, "followed_facts")).toEqual([
      "key TEXT PRIMARY KEY",
      "version INTEGER NOT NULL",
      "source TEXT NOT NULL",
      "body TEXT NOT NULL",
    ]);
    expect(columnsOf(ACCOUNT_SCHEMA, "x402_routes")).toEqual([
      "transaction_hash TEXT PRIMARY KEY",
      "checkout_id TEXT NOT NULL",
      "created_at INTEGER NOT NULL",
    ]);
    expect(indexesOf(ACCOUNT_SCHEMA, "x402_routes")).toEqual([
      "CREATE INDEX IF NOT EXISTS x402_routes_created ON x402_routes (created_at);",
    ]);
    for (const table of ["webhook_minutes", "webhook_health", "followed_facts"]) {
      expect(indexesOf(ACCOUNT_SCHEMA, table)).toEqual([]);
    }
  });

  it("upserts a row: every column inserted, only the named ones set on a conflict, only by a greater version", () => {
    const calls: { query: string; binds: unknown[] }[] = [];
    const sql = {
      exec: (query: string, ...binds: unknown[]) => calls.push({ query, binds }),
    } as unknown as SqlStorage;
    const table = new Table<{ key: string; version: number; body: string | null }>("feed", {
      key: text("k"),
      version: integer("v"),
      body: optionalText("b"),
    });
    table.upsert(sql, { key: "a", version: 2, body: null }, "key", ["version", "body"], "version");
    table.upsert(sql, { key: "a", version: 3, body: "x" }, "key", ["body"]);
    expect(calls.map((c) => ({ ...c, query: c.query.replace(/\s+/g, " ") }))).toEqual([
      {
        query:
          "INSERT INTO feed (k, v, b) VALUES (?, ?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v, b = excluded.b WHERE excluded.v > feed.v",
        binds: ["a", 2, null],
      },
      {
        query:
          "INSERT INTO feed (k, v, b) VALUES (?, ?, ?) ON CONFLICT(k) DO UPDATE SET b = excluded.b",
        binds: ["a", 3, "x"],
      },
    ]);
  });

  interface Thing {
    name: string;
    note: string | null;
    count: number;
    done: boolean;
    meta: { a: string };
    extra: { b: number } | null;
  }
  const COLUMNS: Columns<Thing> = {
    name: text("name_col"),
    note: optionalText("note"),
    count: integer("n"),
    done: flag("done"),
    meta: json<{ a: string }>("meta_json"),
    extra: optionalJson<{ b: number }>("extra_json"),
  };

  it("writes every column by name, its value in place, and reads the row back as written", () => {
    const calls: { query: string; binds: unknown[] }[] = [];
    const sql = {
      exec: (query: string, ...binds: unknown[]) => calls.push({ query, binds }),
    } as unknown as SqlStorage;
    const row: Thing = {
      name: "x",
      note: null,
      count: 3,
      done: true,
      meta: { a: "0.10" },
      extra: null,
    };
    writeRow(sql, "INSERT OR REPLACE", "things", COLUMNS, row, { id: 1 });
    expect(calls).toEqual([
      {
        query:
          "INSERT OR REPLACE INTO things (id, name_col, note, n, done, meta_json, extra_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
        binds: [1, "x", null, 3, 1, '{"a":"0.10"}', null],
      },
    ]);
    const stored: Row = {
      id: 1,
      name_col: "x",
      note: null,
      n: 3,
      done: 1,
      meta_json: '{"a":"0.10"}',
    };
    // A column missing from an older row (extra_json) reads as null.
    expect(decodeRow(COLUMNS, stored)).toEqual(row);
    expect(decodeRow(COLUMNS, { ...stored, done: 0, note: "n", extra_json: '{"b":2}' })).toEqual({
      ...row,
      done: false,
      note: "n",
      extra: { b: 2 },
    });
  });
});
