/**
 * @module
 * When the shopper's refund address may change (the order object asks before it writes one;
 * the route has already checked the address itself with `lib/addresses/address-guard.ts`).
 *
 * Invariants:
 * - frozen once a refund is in flight: while the order holds a refund (taken before the quote,
 *   kept while that refund is live) or any recorded refund is live, a different address is
 *   409 `refund_address_frozen`; the refund pays the address it was planned with, and the
 *   record shows where the money went. After a refund fails or is cancelled (hold released,
 *   nothing sent), the shopper may correct the address for the next one;
 * - repeating the saved currency and address is not a change: 200, nothing written, no slot
 *   taken (the widget may resend it);
 * - at most `REFUND_ADDRESS_WRITES.limit` changes per checkout in any minute, then 429
 *   `rate_limited` with `Retry-After`; a refusal of any kind writes nothing;
 * - decided synchronously in the object (no await), so a refund starting concurrently sees
 *   either the old address with the hold after it, or the new one.
 */
import { type ThrottleRule, takeSlot } from "../../core/events/throttle.ts";
import { failure, type Outcome, success } from "../../lib/outcome/outcome.ts";
import { readHold } from "./hold.ts";
import { isLive, readRefunds } from "./records.ts";

/** Refund-address changes per checkout: 10 a minute. */
export const REFUND_ADDRESS_WRITES: ThrottleRule = {
  name: "refund_address",
  limit: 10,
  windowMs: 60_000,
};

/** A refund address: the crypto currency it is for and the address. */
export interface RefundAddress {
  cryptoCurrencyCode: string;
  address: string;
}

/**
 * Whether `next` may replace `saved`: `write` (a slot was taken), `unchanged`, or the refusal.
 *
 * @example
 * const may = refundAddressChange(sql, kv, saved, { cryptoCurrencyCode: "TRX", address: "T…" }, Date.now());
 * if (!may.ok) return may; // 409 refund_address_frozen or 429 rate_limited
 */
export function refundAddressChange(
  sql: SqlStorage,
  kv: SyncKvStorage,
  saved: RefundAddress | null,
  next: RefundAddress,
  now: number,
): Outcome<"write" | "unchanged"> {
  if (saved?.cryptoCurrencyCode === next.cryptoCurrencyCode && saved.address === next.address)
    return success("unchanged");
  const hold = readHold(sql);
  if (hold || readRefunds(sql).some(isLive)) {
    return failure(
      409,
      "refund_address_frozen",
      `A refund of this order${hold ? ` (${hold.orderId})` : ""} is already being paid to the saved address; it can no longer change.`,
    );
  }
  const slot = takeSlot(kv, REFUND_ADDRESS_WRITES, now);
  if (!slot.ok) {
    return failure(
      429,
      "rate_limited",
      `The refund address of this checkout changed ${REFUND_ADDRESS_WRITES.limit} times in the last minute; wait ${slot.retryAfter} s and try again.`,
      slot.retryAfter,
    );
  }
  return success("write");
}
