/**
 * @module
 * Verifies a notification the worker POSTed to `MERCHANT_WEBHOOK_URL`, like Stripe's
 * `constructEvent`: the raw body, the `x-checkout-signature` header and the secret in; the typed
 * event out, or a `NotificationVerificationError`.
 *
 * Scheme (the worker's `core/events/outbox.ts`): `v1 = hex HMAC-SHA256(secret, "<t>.<raw body>")`.
 * The MAC is compared by `crypto.subtle.verify` (constant time). `t` is inside what is signed,
 * so a captured delivery cannot be replayed once it is older than the tolerance.
 */

import { hmacKey, utf8 } from "../hmac.ts";
import type { CheckoutNotification } from "../types.ts";
import { NotificationVerificationError } from "./errors.ts";
import { parseSignatureHeader, type SignatureHeaderInput } from "./signature-header.ts";

/** Options of `verifyNotification`. */
export interface VerifyOptions {
  /** Largest distance between `t` and now, in seconds (default 300: 5 minutes). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (default `Date.now()`). */
  now?: number;
}

/** The default tolerance: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const NOTIFICATION_ID = /^evt_[A-Za-z0-9-]{1,100}$/;

function asNotification(raw: string): CheckoutNotification {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new NotificationVerificationError("body_invalid", "The notification body is not JSON.");
  }
  const event = body as Partial<CheckoutNotification> | null;
  if (
    typeof event !== "object" ||
    event === null ||
    typeof event.id !== "string" ||
    !NOTIFICATION_ID.test(event.id) ||
    typeof event.type !== "string" ||
    typeof event.createdAt !== "string" ||
    typeof event.data !== "object" ||
    event.data === null
  ) {
    throw new NotificationVerificationError(
      "body_invalid",
      "The notification body is not {id, type, createdAt, data}.",
    );
  }
  return event as CheckoutNotification;
}

/**
 * Returns the verified notification or throws `NotificationVerificationError`. Pass the body
 * exactly as received (before any JSON parsing): a re-serialised body does not verify. The
 * header may be a string or, as Node's `req.headers` can give it, a one-element array.
 *
 * @example
 * // Hono: app.post("/notifications", async (c) => { … })
 * const event = await verifyNotification(
 *   await c.req.text(),
 *   c.req.header("x-checkout-signature"),
 *   process.env.MERCHANT_WEBHOOK_SECRET!,
 * );
 * if (event.type === "order.paid") await markPaid(event.data.invoiceNumber);
 */
export async function verifyNotification(
  rawBody: string | Uint8Array,
  signatureHeader: SignatureHeaderInput,
  secret: string,
  options: VerifyOptions = {},
): Promise<CheckoutNotification> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError("toleranceSeconds must be a non-negative number");
  }
  const { timestamp, signatures } = parseSignatureHeader(signatureHeader);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new NotificationVerificationError(
      "timestamp_out_of_tolerance",
      `The signature's timestamp is more than ${tolerance} s from now.`,
    );
  }
  // The MAC covers the bytes as received: bytes are never decoded and re-encoded first.
  const body = utf8(rawBody);
  const prefix = utf8(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await hmacKey(secret, "verify");
  let matched = false;
  // Every signature is checked (no early exit): the time taken does not say which one matched.
  for (const signature of signatures) {
    if (await crypto.subtle.verify("HMAC", key, signature, signed)) matched = true;
  }
  if (!matched) {
    throw new NotificationVerificationError(
      "signature_mismatch",
      "The notification's signature does not match its body.",
    );
  }
  return asNotification(new TextDecoder().decode(body));
}
