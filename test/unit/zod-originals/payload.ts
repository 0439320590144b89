/**
 * @module
 * The zod original of `payload.ts` as it was before the worker's schemas moved to valibot (commit
 * f560703), kept verbatim (its schemas and what they need; the rest is the worker's) for the differential
 * tests only (`test/unit/schemas-valibot.test.ts`; never imported by the worker).
 */
import * as z from "zod/mini";

export const webhookEnvelope = z.object({
  event: z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,80}$/)),
  data: z.record(z.string(), z.unknown()),
  timestamp: z.string().check(z.minLength(1), z.maxLength(64)),
});

/** Deposits and withdrawals: the object's id and the orderId we created it with. */
export const objectRef = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  orderId: z.string().check(z.minLength(1), z.maxLength(256)),
});

/**
 * Deposits: the object's id and, when the service sends it, the orderId we created it with.
 * The SDK types a deposit's `orderId` optional (a deposit made without one is not ours): a
 * delivery without it is acknowledged as not ours, never refused (a retry could not add it).
 */
export const depositRef = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  orderId: z.nullish(z.string().check(z.maxLength(256))),
});

export const invoiceRef = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  orderId: z.nullish(z.string().check(z.maxLength(256))),
  customPayload: z.nullish(z.string().check(z.maxLength(4096))),
});
