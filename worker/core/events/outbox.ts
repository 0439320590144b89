/**
 * @module
 * Merchant notifications: each order effect is POSTed to `MERCHANT_WEBHOOK_URL`, signed
 * Stripe-style, at least once, retried with backoff by the order's alarm until a 2xx.
 *
 * Signature header: `x-checkout-signature: t=<unix seconds>,v1=<hex>` where
 * `hex = HMAC-SHA256(key = UTF-8 of MERCHANT_WEBHOOK_SECRET, message = "<t>.<raw body>")`
 * (`MERCHANT_API_TOKEN` when a deployment has no `MERCHANT_WEBHOOK_SECRET` yet: `notificationSecret`).
 * The timestamp is inside what is signed, so a captured delivery cannot be replayed later
 * than the merchant's tolerance (we suggest 5 minutes). `x-checkout-event-id` repeats the body's
 * `id`, the key to dedupe on.
 */
import type { NotificationType } from "../../lib/api/merchant-ops.ts";
import { newEventId } from "../../lib/ids/event-id.ts";
import { hmacSha256, toHex } from "../../lib/signing/hmac.ts";

export type { NotificationType };

/** Body of every notification. */
export interface Notification {
  id: string;
  type: NotificationType;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * A new notification: the one place its `evt_` id and shape are made.
 *
 * @example
 * notification("order.paid", new Date().toISOString(), { invoiceNumber: "1001" }).id; // "evt_…"
 */
export function notification(
  type: NotificationType,
  createdAt: string,
  data: Record<string, unknown>,
): Notification {
  return { id: newEventId(), type, createdAt, data };
}

/**
 * Signs a raw body for the merchant.
 *
 * @example
 * const header = await signNotification(body, token, Math.floor(Date.now() / 1000));
 * // "t=1767225600,v1=5f0c…"
 */
export async function signNotification(body: string, secret: string, t: number): Promise<string> {
  return `t=${t},v1=${toHex(await hmacSha256(secret, `${t}.${body}`))}`;
}

/** Delay before retry number `attempt` (1-based): 2 s, 4 s, 8 s, … capped at 1 h. */
export function backoffMs(attempt: number): number {
  return Math.min(2_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}

/**
 * Deliveries stop after this many failed attempts (about a day of retries); the notification is
 * then kept as `failed` until the merchant redelivers it (`redeliverNotification`), which
 * grants it this many tries again.
 */
export const MAX_ATTEMPTS = 30;

/**
 * POSTs one notification; resolves to the HTTP status, or an error string.
 */
export async function postNotification(
  url: string,
  body: string,
  eventId: string,
  secret: string,
  now: number,
): Promise<{ ok: boolean; status: string }> {
  const signature = await signNotification(body, secret, Math.floor(now / 1000));
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-checkout-signature": signature,
        "x-checkout-event-id": eventId,
        "user-agent": "crypto-checkout-worker",
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    return { ok: res.ok, status: String(res.status) };
  } catch (error) {
    return { ok: false, status: error instanceof Error ? error.name : "error" };
  }
}
