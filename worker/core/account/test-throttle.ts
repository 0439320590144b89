/**
 * @module
 * The deployment's limit on test notifications (`POST /v1/notifications/test`): at most
 * `TEST_SENDS_PER_MINUTE` calls in any 60 s window, through the shared per-object throttle
 * (`core/events/throttle.ts`, rule `test_notifications`), kept in the account object's storage.
 *
 * Why: each call queues up to one signed notification per type (seven) and sends them at once;
 * unlimited, 40 calls queued 280 deliveries to the merchant's endpoint. Why the account object
 * and not the rate-limit binding: there is one account object per deployment and it already
 * queues every test notification, so the window is exact across isolates and locations and
 * survives restarts; the binding is per location, eventually consistent, and keyed by client.
 */
import type { ThrottleRule } from "../events/throttle.ts";

/** Test-notification calls a deployment may make per minute (each queues up to seven). */
export const TEST_SENDS_PER_MINUTE = 5;

/** The test-notification rule for `takeSlot`. */
export const TEST_SENDS: ThrottleRule = {
  name: "test_notifications",
  limit: TEST_SENDS_PER_MINUTE,
  windowMs: 60_000,
};
