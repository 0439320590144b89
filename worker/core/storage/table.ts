/**
 * @module
 * A Durable Object's SQLite table described once: each field of its row type with the column
 * that stores it. The DDL, the read (SQLite values → the typed row) and the write (the typed
 * row → one statement naming every column) are all made from that description, so a field is
 * never read under one column and written under another, nor bound out of place in a
 * positional list.
 *
 * Invariants: only `TEXT` and `INTEGER` columns (money is decimal text, never a float;
 * structures are JSON text); a column's SQL type is the one its codec reads and writes; a
 * table's DDL is `CREATE TABLE IF NOT EXISTS` (its indexes `CREATE INDEX IF NOT EXISTS`), so
 * running it again changes nothing; an index names fields of the row, never a column by hand.
 */

type Value = SqlStorageValue;
/** One row as SQLite answers it. */
export type Row = Record<string, Value>;

/** How one field is stored: its column, the column's SQL type, and the two conversions. */
export interface Column<T> {
  readonly name: string;
  /** The column's type and constraint, as written in the DDL. */
  readonly sql: string;
  decode(value: Value | undefined): T;
  encode(value: T): Value;
}

/** Every field of `T`, each with its column. */
export type Columns<T> = { [K in keyof T]-?: Column<T[K]> };

const orNull = (v: Value | undefined) => (v === null || v === undefined ? null : v);

/**
 * A text column; `T` narrows it to a union of strings (a status) the writer guarantees.
 *
 * @example
 * const status = text<DepositStatus>("status");
 */
export function text<T extends string = string>(name: string): Column<T> {
  return { name, sql: "TEXT NOT NULL", decode: (v) => String(v) as T, encode: (v) => v };
}

/** A nullable text column. */
export function optionalText(name: string): Column<string | null> {
  return {
    name,
    sql: "TEXT",
    decode: (v) => (orNull(v) === null ? null : String(v)),
    encode: (v) => v,
  };
}

/** An integer column. */
export function integer(name: string): Column<number> {
  return { name, sql: "INTEGER NOT NULL", decode: (v) => Number(v), encode: (v) => v };
}

/** A boolean stored as `0` / `1`. */
export function flag(name: string): Column<boolean> {
  return {
    name,
    sql: "INTEGER NOT NULL DEFAULT 0",
    decode: (v) => Number(v) === 1,
    encode: (v) => (v ? 1 : 0),
  };
}

/** A value stored as JSON text. */
export function json<T>(name: string): Column<T> {
  return {
    name,
    sql: "TEXT NOT NULL",
    decode: (v) => JSON.parse(String(v)) as T,
    encode: (v) => JSON.stringify(v),
  };
}

/** A nullable value stored as JSON text. */
export function optionalJson<T>(name: string): Column<T | null> {
  return {
    name,
    sql: "TEXT",
    decode: (v) => (typeof v === "string" ? (JSON.parse(v) as T) : null),
    encode: (v) => (v === null ? null : JSON.stringify(v)),
  };
}

/**
 * The column as the table's primary key (`TEXT PRIMARY KEY`, `INTEGER PRIMARY KEY`: for an
 * integer, SQLite's rowid).
 *
 * @example
 * const number = primaryKey(integer("number"));
 */
export function primaryKey<T>(column: Column<T>): Column<T> {
  return { ...column, sql: `${column.sql.replace(" NOT NULL", "")} PRIMARY KEY` };
}

/**
 * The column with a `UNIQUE` constraint.
 *
 * @example
 * const invoiceId = unique(text("invoice_id"));
 */
export function unique<T>(column: Column<T>): Column<T> {
  return { ...column, sql: `${column.sql} UNIQUE` };
}

/**
 * The column with a default for rows written without it (an SQL literal, e.g. `'0'`).
 *
 * @example
 * const received = withDefault(text("crypto_received"), "'0'");
 */
export function withDefault<T>(column: Column<T>, literal: string): Column<T> {
  return { ...column, sql: `${column.sql} DEFAULT ${literal}` };
}

const list = <T>(columns: Columns<T>) => Object.values(columns) as Column<unknown>[];

/**
 * A table's indexes by name, each the fields whose columns it orders by, in order: typed by the
 * row, so an index cannot name a column the table does not describe.
 *
 * @example
 * const indexes: Indexes<OrderIndexRow> = { orders_created: ["createdAt", "invoiceNumber"] };
 */
export type Indexes<T> = Record<string, readonly (keyof T & string)[]>;

/** How `write` treats a row whose key is already held: throw, replace it, or keep the held one. */
export type WriteVerb = "INSERT" | "INSERT OR REPLACE" | "INSERT OR IGNORE";

/**
 * A table's DDL (idempotent): the `head` lines (columns the row type does not carry, such as a
 * one-row table's `id`), then one line per described column, in the description's order.
 *
 * @example
 * tableDdl("payments", PAYMENT, ["id INTEGER PRIMARY KEY AUTOINCREMENT"]);
 */
export function tableDdl<T>(name: string, columns: Columns<T>, head: readonly string[] = []) {
  const lines = [...head, ...list(columns).map((c) => `${c.name} ${c.sql}`)];
  return `
CREATE TABLE IF NOT EXISTS ${name} (
${lines.map((line) => `  ${line}`).join(",\n")}
);`;
}

/**
 * A table of many rows, described once; `head` names columns the row type does not carry (an
 * `AUTOINCREMENT` id); `indexes` its indexes, made with it.
 *
 * @example
 * const PAYMENTS = new Table<PaymentRow>("payments", { … }, ["id INTEGER PRIMARY KEY AUTOINCREMENT"]);
 * sql.exec(PAYMENTS.ddl);
 */
export class Table<T> {
  readonly name: string;
  readonly columns: Columns<T>;
  readonly head: readonly string[];
  readonly indexes: Indexes<T>;

  constructor(
    name: string,
    columns: Columns<T>,
    head: readonly string[] = [],
    indexes: Indexes<T> = {},
  ) {
    this.name = name;
    this.columns = columns;
    this.head = head;
    this.indexes = indexes;
  }

  /** The table's DDL, then its indexes' (idempotent). */
  get ddl(): string {
    const indexes = Object.entries(this.indexes).map(
      ([index, fields]) =>
        `\nCREATE INDEX IF NOT EXISTS ${index} ON ${this.name} (${this.#names(fields).join(", ")});`,
    );
    return tableDdl(this.name, this.columns, this.head) + indexes.join("");
  }

  /** The column names of `fields`, in order. */
  #names(fields: readonly (keyof T)[]): string[] {
    return fields.map((f) => this.columns[f].name);
  }

  /** The rows a clause selects (`WHERE …`, `ORDER BY …`, with its binds), decoded. */
  select(sql: SqlStorage, clause = "", ...binds: SqlStorageValue[]): T[] {
    return sql
      .exec<Row>(`SELECT * FROM ${this.name} ${clause}`, ...binds)
      .toArray()
      .map((r) => decodeRow(this.columns, r));
  }

  /**
   * Writes one row: `INSERT` (a duplicate key throws), `INSERT OR REPLACE` or `INSERT OR
   * IGNORE` (the held row stays).
   */
  write(sql: SqlStorage, verb: WriteVerb, row: T): void {
    writeRow(sql, verb, this.name, this.columns, row);
  }

  /**
   * Writes one row, or, when the row of its `key` is held, sets only the `update` fields of that
   * row from the new one, and, given `newer`, only if the new row's `newer` field is greater than
   * the held one's (a version): one statement, so a projection fed by versions moves only
   * forward whatever order its deliveries land in.
   *
   * @example
   * ORDERS.upsert(sql, row, "invoiceNumber", ["state", "version", "body"], "version");
   */
  upsert(
    sql: SqlStorage,
    row: T,
    key: keyof T,
    update: readonly (keyof T)[],
    newer?: keyof T,
  ): void {
    const { names, values } = rowValues(this.columns, row);
    const set = this.#names(update).map((c) => `${c} = excluded.${c}`);
    const [v] = newer === undefined ? [] : this.#names([newer]);
    sql.exec(
      `INSERT INTO ${this.name} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})
       ON CONFLICT(${this.columns[key].name}) DO UPDATE SET ${set.join(", ")}${v ? ` WHERE excluded.${v} > ${this.name}.${v}` : ""}`,
      ...values,
    );
  }
}

/**
 * The typed row of one SQLite row.
 *
 * @example
 * sql.exec<Row>("SELECT * FROM payments").toArray().map((r) => decodeRow(PAYMENT, r));
 */
export function decodeRow<T>(columns: Columns<T>, row: Row): T {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(columns) as [string, Column<unknown>][]) {
    out[field] = column.decode(row[column.name]);
  }
  return out as T;
}

/**
 * Writes one row with every column named: `INSERT` (a duplicate key throws) or `INSERT OR
 * REPLACE` (the whole row replaced). `fixed` adds columns the row type does not carry (a
 * one-row table's `id = 1`).
 *
 * @example
 * writeRow(sql, "INSERT", "payments", PAYMENT, payment);
 */
export function writeRow<T>(
  sql: SqlStorage,
  verb: WriteVerb,
  table: string,
  columns: Columns<T>,
  row: T,
  fixed: Row = {},
): void {
  const { names, values } = rowValues(columns, row, fixed);
  sql.exec(
    `${verb} INTO ${table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
    ...values,
  );
}

/** Every column's name and its encoded value, in the description's order (`fixed` first). */
function rowValues<T>(columns: Columns<T>, row: T, fixed: Row = {}) {
  return {
    names: [...Object.keys(fixed), ...list(columns).map((c) => c.name)],
    values: [
      ...Object.values(fixed),
      ...Object.entries(columns).map(([field, c]) =>
        (c as Column<unknown>).encode((row as Record<string, unknown>)[field]),
      ),
    ],
  };
}

/**
 * A table that holds at most one row (`id = 1`): the object's own record (a top-up, a payout).
 *
 * @example
 * const DEPOSIT = new SingleRowTable<DepositRow>("deposit_info", { status: text("status"), … });
 * DEPOSIT.write(sql, { ...DEPOSIT.read(sql)!, status: "completed" });
 */
export class SingleRowTable<T> {
  readonly name: string;
  readonly columns: Columns<T>;

  constructor(name: string, columns: Columns<T>) {
    this.name = name;
    this.columns = columns;
  }

  /** The table's DDL (idempotent). */
  get ddl(): string {
    return tableDdl(this.name, this.columns, ["id INTEGER PRIMARY KEY CHECK (id = 1)"]);
  }

  /** The row, or null before it was first written. */
  read(sql: SqlStorage): T | null {
    const r = sql.exec<Row>(`SELECT * FROM ${this.name} WHERE id = 1`).toArray()[0];
    return r ? decodeRow(this.columns, r) : null;
  }

  /** Writes the whole row (insert or replace). */
  write(sql: SqlStorage, row: T): void {
    writeRow(sql, "INSERT OR REPLACE", this.name, this.columns, row, { id: 1 });
  }
}
