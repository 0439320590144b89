/**
 * @module
 * Durable Objects in one Node process, for profiling the worker's own code
 * (`scripts/bench/profile-node.ts`): a namespace makes each object once per id with a storage
 * over `node:sqlite` (in memory; `exec`, cursors, `transactionSync`, the sync `kv`, one alarm
 * run by a timer), and its stub calls methods with the arguments and answer copied by
 * `structuredClone`, as an RPC boundary does. Not workerd: no input/output gates, no isolation
 * between objects; what it measures is JavaScript, SQLite and cloning, never the runtime's own
 * costs (HTTP, Cap'n Proto, the storage layer's commit). Profiling only.
 */
import { createHash } from "node:crypto";
import { DatabaseSync, type StatementSync } from "node:sqlite";

type Value = string | number | bigint | null | ArrayBuffer | Uint8Array;

/** A cursor over a statement's rows, as `SqlStorageCursor` answers them. */
class Cursor<T> {
  readonly #rows: Record<string, unknown>[];
  #at = 0;
  readonly rowsWritten: number;
  readonly rowsRead: number;
  constructor(rows: Record<string, unknown>[], written: number) {
    this.#rows = rows;
    this.rowsWritten = written;
    this.rowsRead = rows.length;
  }
  toArray(): T[] {
    return this.#rows.slice(this.#at) as T[];
  }
  one(): T {
    if (this.#rows.length !== 1)
      throw new Error(`Expected exactly one result, got ${this.#rows.length}`);
    return this.#rows[0] as T;
  }
  next(): IteratorResult<T> {
    if (this.#at >= this.#rows.length) return { done: true, value: undefined };
    return { done: false, value: this.#rows[this.#at++] as T };
  }
  raw(): IterableIterator<unknown[]> {
    return this.#rows.map((r) => Object.values(r)).values();
  }
  [Symbol.iterator]() {
    return this;
  }
  get columnNames(): string[] {
    return Object.keys(this.#rows[0] ?? {});
  }
}

/**
 * Statements run while `sqlStats.on`: per query text, how many times and the time spent (ms),
 * so a profile can say which statements a webhook costs.
 */
export const sqlStats = { on: false, queries: new Map<string, { n: number; ms: number }>() };

/** `ctx.storage.sql` over one in-memory SQLite database (statements cached, as workerd does). */
class Sql {
  readonly db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  constructor(db: DatabaseSync) {
    this.db = db;
  }
  exec<T>(query: string, ...bindings: Value[]): Cursor<T> {
    if (!sqlStats.on) return this.#exec(query, bindings);
    const t = performance.now();
    try {
      return this.#exec(query, bindings);
    } finally {
      const key = query.replace(/\s+/g, " ").trim();
      const stat = sqlStats.queries.get(key) ?? { n: 0, ms: 0 };
      stat.n += 1;
      stat.ms += performance.now() - t;
      sqlStats.queries.set(key, stat);
    }
  }
  #exec<T>(query: string, bindings: Value[]): Cursor<T> {
    // Several statements (DDL) in one string take no bindings and answer no rows.
    if (bindings.length === 0 && /;\s*\S/.test(query.trim().replace(/;\s*$/, ""))) {
      this.db.exec(query);
      return new Cursor<T>([], 0);
    }
    let statement = this.#statements.get(query);
    if (!statement) {
      statement = this.db.prepare(query);
      this.#statements.set(query, statement);
    }
    const args = bindings.map((b) => (b instanceof ArrayBuffer ? new Uint8Array(b) : b));
    if (statement.columns().length === 0) {
      const { changes } = statement.run(...(args as never[]));
      return new Cursor<T>([], Number(changes));
    }
    const rows = statement.all(...(args as never[])) as Record<string, unknown>[];
    return new Cursor<T>(
      rows.map((r) => ({ ...r })),
      0,
    );
  }
  get databaseSize(): number {
    return 0;
  }
}

/** The synchronous KV of a SQLite-backed object (values kept as structured clones). */
class Kv {
  readonly #map = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.#map.has(key) ? (structuredClone(this.#map.get(key)) as T) : undefined;
  }
  put(key: string, value: unknown): void {
    this.#map.set(key, structuredClone(value));
  }
  delete(key: string): boolean {
    return this.#map.delete(key);
  }
  *list(): IterableIterator<[string, unknown]> {
    yield* this.#map.entries();
  }
}

/** An object's id: 64 hex digits, as workerd's. */
function objectId(hex: string, name?: string) {
  return { name, toString: () => hex, equals: (o: { toString(): string }) => o.toString() === hex };
}

type ObjectClass = new (
  ctx: unknown,
  env: unknown,
) => Record<string, unknown> & {
  alarm?: () => Promise<void>;
};

/** One object: its instance, storage and alarm. */
class Instance {
  readonly object: Record<string, unknown> & { alarm?: () => Promise<void> };
  readonly ready: Promise<void>;
  #alarmAt: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  constructor(cls: ObjectClass, id: ReturnType<typeof objectId>, env: unknown) {
    const db = new DatabaseSync(":memory:");
    const sql = new Sql(db);
    let depth = 0;
    const blocking: Promise<unknown>[] = [];
    const storage = {
      sql,
      kv: new Kv(),
      transactionSync<T>(fn: () => T): T {
        const name = `sp${depth++}`;
        db.exec(`SAVEPOINT ${name}`);
        try {
          const out = fn();
          db.exec(`RELEASE ${name}`);
          return out;
        } catch (error) {
          db.exec(`ROLLBACK TO ${name}`);
          db.exec(`RELEASE ${name}`);
          throw error;
        } finally {
          depth--;
        }
      },
      getAlarm: async () => this.#alarmAt,
      setAlarm: async (at: number | Date) => this.#setAlarm(Number(at)),
      deleteAlarm: async () => this.#setAlarm(null),
    };
    const ctx = {
      id,
      storage,
      blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T> {
        const p = fn();
        blocking.push(p);
        return p;
      },
      waitUntil(p: Promise<unknown>) {
        p.catch(() => {});
      },
      abort() {},
    };
    this.object = new cls(ctx, env);
    this.ready = Promise.all(blocking).then(() => {});
  }
  #setAlarm(at: number | null): void {
    this.#alarmAt = at;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (at === null) return;
    this.#timer = setTimeout(
      () => {
        this.#alarmAt = null;
        this.#timer = null;
        this.object.alarm?.().catch((error: unknown) => {
          // A failed alarm is retried by workerd; here, one second later.
          if (this.#alarmAt === null) this.#setAlarm(Date.now() + 1_000);
          void error;
        });
      },
      Math.max(0, at - Date.now()),
    );
  }
  /** Stops the alarm timer (the harness ends). */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }
}

/**
 * A Durable Object namespace of class `cls`: `idFromName`, `idFromString`, `get` (a stub with
 * its `id`, whose every method is an RPC: arguments and answer structured-cloned; `fetch`
 * passes the request).
 */
export class Namespace {
  readonly #cls: ObjectClass;
  readonly #env: () => unknown;
  readonly instances = new Map<string, Instance>();
  constructor(cls: ObjectClass, bindings: () => unknown) {
    this.#cls = cls;
    this.#env = bindings;
  }
  idFromName(name: string) {
    return objectId(createHash("sha256").update(name).digest("hex"), name);
  }
  idFromString(hex: string) {
    return objectId(hex);
  }
  #instance(id: ReturnType<typeof objectId>): Instance {
    const key = id.toString();
    let instance = this.instances.get(key);
    if (!instance) {
      instance = new Instance(this.#cls, id, this.#env());
      this.instances.set(key, instance);
    }
    return instance;
  }
  get(id: ReturnType<typeof objectId>) {
    return new Proxy(
      {},
      {
        get: (_target, method) => {
          if (method === "then") return undefined;
          // A stub's own `id` (workerd's `DurableObjectStub.id`), not an RPC: the SSE route
          // names the watched object by it (`core/streams/hub-route.ts`).
          if (method === "id") return id;
          return async (...args: unknown[]) => {
            const instance = this.#instance(id);
            await instance.ready;
            const fn = instance.object[method as string] as (...a: unknown[]) => unknown;
            if (typeof fn !== "function") throw new Error(`no RPC method ${String(method)}`);
            if (method === "fetch") return fn.apply(instance.object, args);
            const answer = await fn.apply(instance.object, structuredClone(args));
            return answer === undefined ? undefined : structuredClone(answer);
          };
        },
      },
    );
  }
  /** Stops every object's alarm timer. */
  stop(): void {
    for (const instance of this.instances.values()) instance.stop();
  }
}
