/**
 * @module
 * What the account's index remembers about the service's webhooks (for the doctor): how many
 * were refused for a bad signature, per minute for the last 24 h (older minutes are deleted as
 * new ones arrive: at most 1,440 rows), and when one was last refused and last verified. The
 * routes report in batches (`webhook-tally.ts`), never one call per request.
 */

const MINUTE_MS = 60_000;
const KEEP_MINUTES = 24 * 60;

/** One batch from a worker isolate. */
export interface WebhookTally {
  refused: number;
  lastRefusedAt: string | null;
  lastVerifiedAt: string | null;
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
    sql.exec(
      "INSERT INTO webhook_minutes (minute, refused) VALUES (?, ?) ON CONFLICT(minute) DO UPDATE SET refused = refused + excluded.refused",
      minute,
      Math.min(tally.refused, 1_000_000),
    );
    sql.exec("DELETE FROM webhook_minutes WHERE minute <= ?", minute - KEEP_MINUTES);
  }
  sql.exec("INSERT OR IGNORE INTO webhook_health (id) VALUES (1)");
  // MAX keeps the newest of two isolates' reports whatever order they land in.
  sql.exec(
    `UPDATE webhook_health SET
       last_refused_at = CASE WHEN ? IS NULL THEN last_refused_at ELSE MAX(COALESCE(last_refused_at, ''), ?) END,
       last_verified_at = CASE WHEN ? IS NULL THEN last_verified_at ELSE MAX(COALESCE(last_verified_at, ''), ?) END
     WHERE id = 1`,
    tally.lastRefusedAt,
    tally.lastRefusedAt,
    tally.lastVerifiedAt,
    tally.lastVerifiedAt,
  );
}

/** Refusals in the last hour, and the last refused and verified times. */
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
  const row = sql
    .exec<{ last_refused_at: string | null; last_verified_at: string | null }>(
      "SELECT last_refused_at, last_verified_at FROM webhook_health WHERE id = 1",
    )
    .toArray()[0];
  return {
    refusedLastHour: refused,
    lastRefusedAt: row?.last_refused_at ?? null,
    lastVerifiedAt: row?.last_verified_at ?? null,
  };
}
