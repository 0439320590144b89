/**
 * @module
 * A per-object throttle: at most `limit` actions of one kind in any `windowMs`, kept in the
 * Durable Object's own synchronous KV storage, so it holds across requests, isolates and
 * restarts of that one object (one checkout, one payout) without another binding.
 *
 * Invariants: a sliding log of the last `limit` accepted times (no fixed-window burst of
 * 2 × limit at a boundary); a refused action is not logged, so hammering never extends the
 * wait; check and record happen in one synchronous call (no await in between), so concurrent
 * requests to the object cannot both take the last slot.
 */

/** One kind of throttled action. */
export interface ThrottleRule {
  /** Storage key suffix; one log per name. */
  name: string;
  limit: number;
  windowMs: number;
}

/** Storage key of a rule's log (exported for tests that age it instead of waiting). */
export const throttleKey = (rule: Pick<ThrottleRule, "name">) => `throttle:${rule.name}`;

/**
 * Takes a slot now, or says how many whole seconds until one frees up (≥ 1, for `Retry-After`).
 *
 * @example
 * const taken = takeSlot(ctx.storage.kv, { name: "refund_address", limit: 10, windowMs: 60_000 }, Date.now());
 * if (!taken.ok) return failure(429, "rate_limited", "…", taken.retryAfter);
 */
export function takeSlot(
  kv: SyncKvStorage,
  rule: ThrottleRule,
  now: number,
): { ok: true } | { ok: false; retryAfter: number } {
  const key = throttleKey(rule);
  const recent = (kv.get<number[]>(key) ?? []).filter((t) => t > now - rule.windowMs);
  if (recent.length >= rule.limit) {
    const oldest = recent[recent.length - rule.limit]!;
    return { ok: false, retryAfter: Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000)) };
  }
  kv.put(key, [...recent, now].slice(-rule.limit));
  return { ok: true };
}
