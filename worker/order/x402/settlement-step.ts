/**
 * @module
 * What one fact about an x402 payment does to its row: the settle's answer, a settlement the
 * service reports (webhook `x402.payment.*` or a read), or the worker's own conclusion that an
 * authorization can no longer settle. Pure.
 *
 * Facts only move forward (`settling`/`unknown` → `submitted` → `confirmed` | `failed`); a
 * fact that is older or says nothing new changes nothing (a duplicated, late or reordered
 * webhook). One exception, for money: the service's `confirmed` overrides a failure the worker
 * concluded itself (`WORKER_GAVE_UP`): the service is the source of truth.
 */

import type { X402PaymentView } from "../../../packages/contract/src/http-api.ts";
import { formatFixed, fromBaseUnits } from "../../lib/money/decimal.ts";
import type { X402PaymentRow } from "./payments-table.ts";

/** A fact about a payment. */
export interface SettlementFact {
  status: "submitted" | "confirmed" | "failed";
  transaction?: string | null;
  settlementId?: string | null;
  errorReason?: string | null;
  confirmedAt?: string | null;
}

/** The reason the worker writes when it concluded a payment failed without the service saying so. */
export const WORKER_GAVE_UP = "worker_no_settlement_found";

const RANK: Record<X402PaymentRow["status"], number> = {
  settling: 0,
  unknown: 0,
  submitted: 1,
  confirmed: 2,
  failed: 2,
};

/**
 * The row after `fact`, or null when the fact is stale (changes nothing).
 *
 * @example
 * settlementStep(row, { status: "confirmed", transaction: "0xab…", confirmedAt }, now)?.status; // "confirmed"
 */
export function settlementStep(
  row: X402PaymentRow,
  fact: SettlementFact,
  now: string,
): X402PaymentRow | null {
  const overridesOwnFailure =
    row.status === "failed" && row.errorReason === WORKER_GAVE_UP && fact.status === "confirmed";
  const forward = RANK[fact.status] > RANK[row.status] || overridesOwnFailure;
  const fills =
    fact.status === row.status &&
    ((!row.transaction && Boolean(fact.transaction)) ||
      (!row.settlementId && Boolean(fact.settlementId)));
  if (!forward && !fills) return null;
  return {
    ...row,
    status: forward ? fact.status : row.status,
    transaction: fact.transaction || row.transaction,
    settlementId: fact.settlementId || row.settlementId,
    errorReason:
      fact.status === "failed" ? (fact.errorReason ?? row.errorReason ?? "failed") : null,
    confirmedAt: fact.status === "confirmed" ? (fact.confirmedAt ?? now) : row.confirmedAt,
    // A final fact needs no more reads; a submitted one is read until it is final.
    nextReadAt: fact.status === "submitted" ? row.nextReadAt : 0,
    updatedAt: now,
  };
}

/**
 * How the shopper and the merchant see a payment.
 *
 * @example
 * paymentView(row).amount; // "12.340000"
 */
export function paymentView(row: X402PaymentRow): X402PaymentView {
  return {
    status: row.status,
    payer: row.payer,
    amount: formatFixed(fromBaseUnits(BigInt(row.value), 6), 6),
    fiatAmount: row.fiatAmount,
    network: row.network,
    transaction: row.transaction,
    errorReason: row.errorReason,
    createdAt: row.createdAt,
    confirmedAt: row.confirmedAt,
  };
}
