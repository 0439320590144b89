/**
 * @module
 * The webhook envelope `{ event, data, timestamp }` and the parts of `data` the worker routes
 * by. Only routing facts are read from a delivery; the state itself is fetched from the service.
 */
import * as z from "zod";

export const webhookEnvelope = z.object({
  event: z.string().regex(/^[A-Za-z0-9_.:-]{1,80}$/),
  data: z.record(z.string(), z.unknown()),
  timestamp: z.string().min(1).max(64),
});

export const invoiceRef = z.object({
  id: z.string().min(1).max(128),
  orderId: z.string().max(256).nullish(),
  customPayload: z.string().max(4096).nullish(),
});

/** Events the worker acts on; other verified events are acknowledged and logged. */
export const HANDLED_EVENTS = new Set([
  "invoice.statusChanged",
  "deposit.statusChanged",
  "withdrawal.statusChanged",
]);
