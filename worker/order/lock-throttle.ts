/**
 * @module
 * The per-checkout throttle of currency locks: at most `LOCKS_PER_MINUTE` upstream lock calls
 * in any 60 s window, through the shared per-object throttle (`core/events/throttle.ts`, rule
 * `currency_lock`), kept in the order object's own storage.
 *
 * Why in the object and not the rate-limit binding: the order object already runs every lock
 * of its checkout, so the sliding window costs one synchronous storage read, survives the
 * object being evicted or restarted (an in-memory counter would reset), and is exact, where
 * the binding is per location and eventually consistent. Locks that do not call the service
 * (the currency already locked) take no slot.
 */
import type { ThrottleRule } from "../core/events/throttle.ts";

/** Upstream lock calls one checkout may make per minute. */
export const LOCKS_PER_MINUTE = 10;

/** The currency-lock rule for `takeSlot`. */
export const CURRENCY_LOCKS: ThrottleRule = {
  name: "currency_lock",
  limit: LOCKS_PER_MINUTE,
  windowMs: 60_000,
};
