/**
 * The table descriptions of `worker/core/storage/table.ts`: the DDL they make keeps the columns
 * objects stored before them already have (a renamed column would break every stored top-up
 * or payout), a row reads back as written (nulls, JSON, flags, integers), and a write names
 * every column with its value in place.
 */
import { describe, expect, it } from "vitest";
import {
  type Columns,
  decodeRow,
  flag,
  integer,
  json,
  optionalJson,
  optionalText,
  type Row,
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
