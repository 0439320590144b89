/**
 * @module
 * The bookkeeping tables every Durable Object (order, top-up, payout) keeps beside its own
 * rows: the append-only event log (each event stores the JSON it produced, so SSE replay after
 * `Last-Event-ID` is verbatim), webhook deliveries already applied (dedupe by body hash, the
 * newest `MAX_REMEMBERED_DELIVERIES`) and
 * the merchant-notification outbox (delivered by `outbox-store.ts`) with the index feed that
 * reports to the account's index (`index-feed.ts`).
 */
import { INDEX_FEED_SCHEMA } from "./index-feed.ts";
import { OUTBOX_SCHEMA } from "./outbox-store.ts";

/**
 * How many events an SSE client may be sent as a replay (`live-events.ts`): a client further
 * behind gets the current snapshot instead, so only the newest this many events keep their
 * snapshot JSON; older rows keep type, message and time (the merchant's log).
 */
export const MAX_REPLAY_EVENTS = 50;

/**
 * How many events one object's log holds: older rows are deleted as new ones arrive. A
 * shopper can add about 20 events a minute through the throttled routes; with these bounds an
 * object's log stays under about 1,000 short rows + 50 snapshots (≈ 0.25 MB), not 34 MB a day.
 */
export const MAX_LOG_EVENTS = 1_000;

/**
 * How many applied deliveries one object remembers for dedupe (`deliveries`): the newest this
 * many. The service publishes no retry schedule (wire contract), so the bound is a count, not
 * an age: a redelivery comes soon after its original, while an object sees a handful of
 * deliveries per upstream object (one per status change). A duplicate older than the newest 64
 * is not lost either: it is admitted again as a read, and the facts and the newest acknowledged
 * send time (`core/converge/delivery.ts`) make an equal or older record change nothing.
 */
export const MAX_REMEMBERED_DELIVERIES = 64;

/**
 * Deliveries are pruned once every this many inserts (the insert's own rowid tells when), so
 * most webhooks run no extra statement: the table holds at most 64 + 15 rows.
 */
const PRUNE_DELIVERIES_EVERY = 16;

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
   * Keeps the log within its bounds: the event leaving the replay window loses its snapshot,
   * events beyond `MAX_LOG_EVENTS` are deleted (`seq` still only grows: the newest row stays).
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
    // `seq` starts at 1: while the log is younger than a bound, no row is beyond it (and each
    // statement skipped is one fewer per event: most objects never reach either bound).
    if (seq > MAX_REPLAY_EVENTS) {
      this.sql.exec("UPDATE events SET snapshot = '' WHERE seq = ?", seq - MAX_REPLAY_EVENTS);
    }
    if (seq > MAX_LOG_EVENTS)
      this.sql.exec("DELETE FROM events WHERE seq <= ?", seq - MAX_LOG_EVENTS);
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

  /**
   * Events after `seq`, oldest first, with the JSON each produced; null when that is more than
   * `MAX_REPLAY_EVENTS` events (their snapshots are no longer all kept: send the current one).
   */
  after(seq: number): { seq: number; snapshot: string }[] | null {
    if (this.lastSeq() - seq > MAX_REPLAY_EVENTS) return null;
    const rows = this.sql
      .exec<Row>("SELECT seq, snapshot FROM events WHERE seq > ? ORDER BY seq", seq)
      .toArray()
      .map((r) => ({ seq: Number(r.seq), snapshot: String(r.snapshot) }));
    // Rows of an object made before these bounds may have lost nothing; these never replay ''.
    return rows.every((r) => r.snapshot !== "") ? rows : null;
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

  /**
   * Records an applied delivery (idempotent) and keeps only the newest
   * `MAX_REMEMBERED_DELIVERIES`: rowids grow by one per insert (the newest row is never
   * deleted), so every `PRUNE_DELIVERIES_EVERY`th insert deletes the rows that many behind it.
   *
   * @example
   * log.rememberDelivery(delivery.key, new Date().toISOString());
   */
  rememberDelivery(key: string, at: string): void {
    const inserted = this.sql
      .exec<Row>(
        "INSERT OR IGNORE INTO deliveries (key, at) VALUES (?, ?) RETURNING rowid AS n",
        key,
        at,
      )
      .toArray()[0];
    const n = inserted ? Number(inserted.n) : 0;
    if (n > MAX_REMEMBERED_DELIVERIES && n % PRUNE_DELIVERIES_EVERY === 0) {
      this.sql.exec("DELETE FROM deliveries WHERE rowid <= ?", n - MAX_REMEMBERED_DELIVERIES);
    }
  }
}
