/**
 * @module
 * A delivery's signed `data` as the service's record. Per the wire contract and the service's
 * published SDK, `data` is the whole object a GET returns (plus `previousStatus`), as the
 * service held it at the envelope's `timestamp`; the signature covers it. It is parsed with the
 * very schemas a GET answer is (`service/schemas.ts`, on the exact-number JSON), so an object
 * applies a delivery exactly as it applies a read. A `data` that fails them is no record (null):
 * the delivery then takes the refetch path (`core/converge/delivery.ts`).
 *
 * The facts a record announces are the object's own facts rule (`core/converge/facts.ts`): an
 * invoice's status and crypto received, a deposit's status and settled amount, a withdrawal's
 * status.
 */
import type { Delivery } from "../../core/converge/delivery.ts";
import type { Facts } from "../../core/converge/facts.ts";
import { check } from "../../lib/schema.ts";
import { depositSchema, invoiceSchema, withdrawalSchema } from "../../service/schemas.ts";
import type { Deposit, Invoice, Withdrawal } from "../../service/types.ts";
import { announcedFacts } from "./payload.ts";

/** A record and the facts it announces. */
export interface SignedRecord<R> {
  record: R;
  facts: Facts;
}

/**
 * The invoice a delivery carries, or null when its `data` is not a whole invoice.
 *
 * @example
 * invoiceRecord(envelope.data)?.facts; // { status: "paid", received: "10" }
 */
export function invoiceRecord(data: unknown): SignedRecord<Invoice> | null {
  const parsed = check(invoiceSchema, data);
  if (!parsed.success) return null;
  const invoice = parsed.data;
  return {
    record: invoice,
    facts: { status: invoice.status, received: invoice.cryptoAmountReceived ?? "0" },
  };
}

/**
 * The deposit a delivery carries, or null when its `data` is not a whole deposit with a status.
 *
 * @example
 * depositRecord(envelope.data)?.facts; // { status: "completed", received: "50" }
 */
export function depositRecord(data: unknown): SignedRecord<Deposit> | null {
  const parsed = check(depositSchema, data);
  if (!parsed.success || parsed.data.status === null) return null;
  const deposit = parsed.data;
  return {
    record: deposit,
    facts: { status: parsed.data.status, received: deposit.settlement?.amountPaid ?? "0" },
  };
}

/**
 * The withdrawal a delivery carries, or null when its `data` is not a whole withdrawal.
 *
 * @example
 * withdrawalRecord(envelope.data)?.facts; // { status: "completed", received: "0" }
 */
export function withdrawalRecord(data: unknown): SignedRecord<Withdrawal> | null {
  const parsed = check(withdrawalSchema, data);
  if (!parsed.success) return null;
  return { record: parsed.data, facts: { status: parsed.data.status, received: "0" } };
}

/**
 * The delivery an object is handed: the signed record `parse` finds in `data` and the facts it
 * announces, or, without a whole record, what `data` announces (then the object refetches).
 *
 * @example
 * const delivery = signedDelivery(ref.data.id, stamp, data, invoiceRecord);
 */
export function signedDelivery<R>(
  id: string,
  stamp: Pick<Delivery, "key" | "sentAt">,
  data: Record<string, unknown>,
  parse: (data: unknown) => SignedRecord<R> | null,
): Delivery<R> {
  const signed = parse(data);
  return {
    id,
    ...stamp,
    announced: signed?.facts ?? announcedFacts(data),
    record: signed?.record ?? null,
  };
}
