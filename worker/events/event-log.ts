/**
 * @module
 * The bookkeeping tables every Durable Object (order, top-up, payout) keeps beside its own
 * rows: the append-only event log (each event stores the JSON it produced, so SSE replay after
 * `Last-Event-ID` is verbatim), webhook deliveries already applied (dedupe by body hash) and
 * the merchant-notification outbox (delivered by `outbox-store.ts`) with the index feed that
 * reports to the account's index (`index-feed.ts`).
 */
import { INDEX_FEED_SCHEMA } from "./index-feed.ts";
import { OUTBOX_SCHEMA } from "./outbox-store.ts";

/** DDL of the shared tables; idempotent, run under `blockConcurrencyWhile`. */
export const EVENT_LOG_SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL,
  message TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deliveries (
  key TEXT PRIMARY KEY,
  at TEXT NOT NULL
);
${OUTBOX_SCHEMA}${INDEX_FEED_SCHEMA}`;

type Row = Record<string, SqlStorageValue>;

/** Typed access to the event log and delivery dedupe of one object. */
export class EventLog {
  readonly sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /**
   * Appends an event; `json(seq)` renders the state it produced with its own sequence number.
   *
   * @example
   * const seq = log.append("deposit.created", "opened", (s) => JSON.stringify({ seq: s }), now);
   */
  append(type: string, message: string, json: (seq: number) => string, at: string): number {
    const seq = this.lastSeq() + 1;
    this.sql.exec(
      "INSERT INTO events (seq, type, message, snapshot, at) VALUES (?, ?, ?, ?, ?)",
      seq,
      type,
      message,
      json(seq),
      at,
    );
    return seq;
  }

  lastSeq(): number {
    return Number(this.sql.exec<Row>("SELECT COALESCE(MAX(seq), 0) AS seq FROM events").one().seq);
  }

  /** When the newest event was appended, or null before the first. */
  lastAt(): string | null {
    const row = this.sql.exec<Row>("SELECT at FROM events ORDER BY seq DESC LIMIT 1").toArray()[0];
    return row ? String(row.at) : null;
  }

  /** Events after `seq`, oldest first, with the JSON each produced. */
  after(seq: number): { seq: number; snapshot: string }[] {
    return this.sql
      .exec<Row>("SELECT seq, snapshot FROM events WHERE seq > ? ORDER BY seq", seq)
      .toArray()
      .map((r) => ({ seq: Number(r.seq), snapshot: String(r.snapshot) }));
  }

  /** The log without payloads, for merchant views. */
  entries(): { seq: number; type: string; message: string; at: string }[] {
    return this.sql
      .exec<Row>("SELECT seq, type, message, at FROM events ORDER BY seq")
      .toArray()
      .map((r) => ({
        seq: Number(r.seq),
        type: String(r.type),
        message: String(r.message),
        at: String(r.at),
      }));
  }

  hasDelivery(key: string): boolean {
    return this.sql.exec<Row>("SELECT 1 FROM deliveries WHERE key = ?", key).toArray().length > 0;
  }

  /** Records an applied delivery (idempotent). */
  rememberDelivery(key: string, at: string): void {
    this.sql.exec("INSERT OR IGNORE INTO deliveries (key, at) VALUES (?, ?)", key, at);
  }
}
