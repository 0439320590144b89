/**
 * @module
 * What the account's index remembers about the service's webhooks (for the doctor): owns the
 * `webhook_minutes` and `webhook_health` tables (described once here, over
 * `core/storage/table.ts`): how many were refused for a bad signature, per minute for the last
 * 24 h (older minutes are deleted as new ones arrive: at most 1,440 rows), and when one was last
 * refused and last verified. The routes report in batches (`webhook-tally.ts`), never one call
 * per request.
 */
import { integer, optionalText, primaryKey, SingleRowTable, Table } from "../storage/table.ts";

const MINUTE_MS = 60_000;
const KEEP_MINUTES = 24 * 60;
/** Most refusals one batch adds (one call cannot add an unbounded count). */
const MAX_BATCH_REFUSED = 1_000_000;

/** One batch from a worker isolate. */
export interface WebhookTally {
  refused: number;
  lastRefusedAt: string | null;
  lastVerifiedAt: string | null;
}

/** Refusals counted in one minute. */
export interface RefusedMinute {
  /** Epoch minutes (`Math.floor(ms / 60_000)`): the key, one row per minute. */
  minute: number;
  refused: number;
}

/** The last refused and verified times (ISO), each null until one happened. */
export interface WebhookHealthRow {
  lastRefusedAt: string | null;
  lastVerifiedAt: string | null;
}

/**
 * `webhook_minutes`: one row per minute that had refusals, the last 24 h only.
 *
 * @example
 * WEBHOOK_MINUTES.select(sql, "WHERE minute > ?", minute - 60);
 */
export const WEBHOOK_MINUTES = new Table<RefusedMinute>("webhook_minutes", {
  minute: primaryKey(integer("minute")),
  refused: integer("refused"),
});

/**
 * `webhook_health`: one row, written by the first batch.
 *
 * @example
 * WEBHOOK_HEALTH.read(sql)?.lastVerifiedAt;
 */
export const WEBHOOK_HEALTH = new SingleRowTable<WebhookHealthRow>("webhook_health", {
  lastRefusedAt: optionalText("last_refused_at"),
  lastVerifiedAt: optionalText("last_verified_at"),
});

/** The later of a held time and a reported one (ISO times order as text); null reports nothing. */
function later(held: string | null, reported: string | null): string | null {
  if (reported === null) return held;
  return held === null || reported > held ? reported : held;
}

/**
 * Adds a batch at `now` (its refusals count in the current minute).
 *
 * @example
 * recordTally(sql, { refused: 3, lastRefusedAt: iso, lastVerifiedAt: null }, Date.now());
 */
export function recordTally(sql: SqlStorage, tally: WebhookTally, now: number): void {
  const minute = Math.floor(now / MINUTE_MS);
  if (tally.refused > 0) {
    const held = WEBHOOK_MINUTES.select(sql, "WHERE minute = ?", minute)[0]?.refused ?? 0;
    WEBHOOK_MINUTES.write(sql, "INSERT OR REPLACE", {
      minute,
      refused: held + Math.min(tally.refused, MAX_BATCH_REFUSED),
    });
    sql.exec("DELETE FROM webhook_minutes WHERE minute <= ?", minute - KEEP_MINUTES);
  }
  // The later time stays, whatever order two isolates' batches land in.
  const held = WEBHOOK_HEALTH.read(sql);
  WEBHOOK_HEALTH.write(sql, {
    lastRefusedAt: later(held?.lastRefusedAt ?? null, tally.lastRefusedAt),
    lastVerifiedAt: later(held?.lastVerifiedAt ?? null, tally.lastVerifiedAt),
  });
}

/**
 * Refusals in the last hour, and the last refused and verified times.
 *
 * @example
 * readWebhookHealth(sql, Date.now()); // { refusedLastHour: 3, lastRefusedAt: "…", lastVerifiedAt: null }
 */
export function readWebhookHealth(sql: SqlStorage, now: number) {
  const minute = Math.floor(now / MINUTE_MS);
  const refused = Number(
    sql
      .exec<{ n: number | null }>(
        "SELECT COALESCE(SUM(refused), 0) AS n FROM webhook_minutes WHERE minute > ?",
        minute - 60,
      )
      .one().n,
  );
  const held = WEBHOOK_HEALTH.read(sql);
  return {
    refusedLastHour: refused,
    lastRefusedAt: held?.lastRefusedAt ?? null,
    lastVerifiedAt: held?.lastVerifiedAt ?? null,
  };
}
