/**
 * @module
 * The merchant backend's notification inbox: verified notifications from the worker, each kept
 * once (deduplicated on `id`; the worker retries, so duplicates are normal), newest first.
 */
import type { MerchantNotification } from "./integration.ts";

/** A stored notification with when it arrived and how many times it was delivered. */
export interface ReceivedNotification extends MerchantNotification {
  receivedAt: string;
  deliveries: number;
}

/** Finds the invoice number a notification is about, whatever its event shape. */
export function invoiceNumberOf(notification: MerchantNotification): string | undefined {
  const data = notification.data ?? {};
  const nested = (data.order ?? data.checkout) as Record<string, unknown> | undefined;
  const found = data.invoiceNumber ?? nested?.invoiceNumber;
  return typeof found === "string" ? found : undefined;
}

/** In-memory inbox. */
export class Inbox {
  readonly #byId = new Map<string, ReceivedNotification>();
  /** Requests refused because their signature did not verify. */
  rejected = 0;

  /**
   * Stores a verified notification; returns false for a duplicate.
   *
   * @example
   * inbox.accept(notification); // true the first time, false after
   */
  accept(notification: MerchantNotification): boolean {
    const seen = this.#byId.get(notification.id);
    if (seen) {
      seen.deliveries++;
      return false;
    }
    this.#byId.set(notification.id, {
      ...notification,
      receivedAt: new Date().toISOString(),
      deliveries: 1,
    });
    return true;
  }

  /** Newest first, optionally only one order's. */
  list(invoiceNumber?: string): ReceivedNotification[] {
    const all = [...this.#byId.values()].reverse();
    return invoiceNumber ? all.filter((n) => invoiceNumberOf(n) === invoiceNumber) : all;
  }
}
