/**
 * @module
 * The webhook envelope `{ event, data, timestamp }`, the parts of `data` the worker routes by,
 * and what a delivery without a whole record announces. A whole record is `record.ts`'s.
 */
import * as z from "zod/mini";
import type { Facts } from "../../core/converge/facts.ts";
import { toDecimal } from "../../lib/money/decimal.ts";
import { JsonNumber } from "../../lib/money/exact-json.ts";

/** `data` is any plain object (copied without an own `__proto__` key, as zod's record copies). */
export const webhookEnvelope = z.object({
  event: z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,80}$/)),
  data: z.record(z.string(), z.unknown()),
  timestamp: z.string().check(z.minLength(1), z.maxLength(64)),
});

const objectId = z.string().check(z.minLength(1), z.maxLength(128));

/** Deposits and withdrawals: the object's id and the orderId we created it with. */
export const objectRef = z.object({
  id: objectId,
  orderId: z.string().check(z.minLength(1), z.maxLength(256)),
});

/**
 * Deposits: the object's id and, when the service sends it, the orderId we created it with.
 * The SDK types a deposit's `orderId` optional (a deposit made without one is not ours): a
 * delivery without it is acknowledged as not ours, never refused (a retry could not add it).
 */
export const depositRef = z.object({
  id: objectId,
  orderId: z.nullish(z.string().check(z.maxLength(256))),
});

export const invoiceRef = z.object({
  id: objectId,
  orderId: z.nullish(z.string().check(z.maxLength(256))),
  customPayload: z.nullish(z.string().check(z.maxLength(4096))),
});

/** Events the worker acts on; other verified events are acknowledged and logged. */
export const HANDLED_EVENTS = new Set([
  "invoice.statusChanged",
  "deposit.statusChanged",
  "withdrawal.statusChanged",
  "x402.payment.settled",
  "x402.payment.failed",
]);

/**
 * The `event` of a parsed body, read before the envelope is checked (a verified event of a
 * kind we do not handle is acknowledged whatever the shape of its data); null if absent.
 */
export function eventKind(body: unknown): string | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const event = (body as { event?: unknown }).event;
  return typeof event === "string" ? event.slice(0, 80) : null;
}

/**
 * What a delivery announces about its object's progress: its `status` and, for invoices, its
 * `cryptoAmountReceived` (read exactly: the body is parsed with `parseExactJson`). Null when
 * the delivery carries no status (then any successful refetch acknowledges it).
 *
 * @example
 * announcedFacts({ status: "paid", cryptoAmountReceived: new JsonNumber("10") }); // { status: "paid", received: "10" }
 */
export function announcedFacts(data: Record<string, unknown>): Facts | null {
  const status = data.status;
  if (typeof status !== "string") return null;
  const raw = data.cryptoAmountReceived;
  const text = raw instanceof JsonNumber ? raw.source : typeof raw === "string" ? raw : null;
  let received = "0";
  if (text !== null) {
    try {
      received = toDecimal(text);
    } catch {
      received = "0";
    }
  }
  return { status, received };
}
