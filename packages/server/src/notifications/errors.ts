/**
 * @module
 * The error `verifyNotification` throws: one class, a stable `code` per reason, so a receiver
 * can answer 400 and log the reason without ever echoing the secret or the signature.
 */

/** Why a notification was refused. */
export type NotificationErrorCode =
  /** No `x-checkout-signature` header. */
  | "signature_missing"
  /** The header is not `t=<unix seconds>,v1=<hex>`. */
  | "signature_malformed"
  /** `t` is further from now than the tolerance (a replayed or delayed request). */
  | "timestamp_out_of_tolerance"
  /** No `v1` matches the body: wrong secret, or the body or timestamp was changed. */
  | "signature_mismatch"
  /** Signed correctly, but the body is not a notification (never expected from the worker). */
  | "body_invalid";

/**
 * @example
 * try { await verifyNotification(body, header, secret); }
 * catch (error) { if (error instanceof NotificationVerificationError) console.log(error.code); }
 */
export class NotificationVerificationError extends Error {
  readonly code: NotificationErrorCode;
  constructor(code: NotificationErrorCode, message: string) {
    super(message);
    this.name = "NotificationVerificationError";
    this.code = code;
  }
}
