/**
 * @module
 * Ids of the merchant notifications (`evt_<uuid>`): random, one per notification, so the
 * merchant can dedupe a notification the outbox delivered twice.
 */

/**
 * A new notification id.
 *
 * @example
 * newEventId(); // "evt_3b241101-e2bb-4255-8caf-4136c566a962"
 */
export function newEventId(): string {
  return `evt_${crypto.randomUUID()}`;
}
