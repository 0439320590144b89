/**
 * @module
 * The one table per upstream kind that orders the service's statuses by progress, taken from
 * the service's status graphs (invoice, deposit, withdrawal): every move the service makes goes
 * to an equal or higher rank. A status of a lower rank than one already seen is therefore an
 * older read (a lagging replica, a reordered webhook), never news.
 *
 * Equal ranks are statuses the service moves between both ways (`processing` ⇄ `suspended`)
 * or final alternatives (`paid` | `expired` | …): neither is newer than the other.
 */
import type {
  DepositStatus,
  InvoiceStatus,
  WithdrawalStatus,
} from "../../../packages/contract/src/http-api.ts";

/** The kinds of upstream objects the worker follows. */
export type UpstreamKind = "invoice" | "deposit" | "withdrawal";

/** Invoices: created → processing ⇄ suspended → partially_paid → paid | overpaid | expired …; */
export const INVOICE_RANK: Readonly<Record<InvoiceStatus, number>> = {
  created: 0,
  processing: 1,
  suspended: 1,
  partially_paid: 2,
  paid: 3,
  overpaid: 3,
  expired: 3,
  failed: 3,
  cancelled: 3,
};

/** Deposits: created → processing ⇄ suspended → completed | failed; created → expired | cancelled. */
export const DEPOSIT_RANK: Readonly<Record<DepositStatus, number>> = {
  created: 0,
  processing: 1,
  suspended: 1,
  completed: 2,
  failed: 2,
  expired: 2,
  cancelled: 2,
};

/** Withdrawals: created → processing → completed | failed; created → cancelled. */
export const WITHDRAWAL_RANK: Readonly<Record<WithdrawalStatus, number>> = {
  created: 0,
  processing: 1,
  completed: 2,
  failed: 2,
  cancelled: 2,
};

const TABLES: Record<UpstreamKind, Readonly<Record<string, number>>> = {
  invoice: INVOICE_RANK,
  deposit: DEPOSIT_RANK,
  withdrawal: WITHDRAWAL_RANK,
};

/** The highest rank of each kind: the service never moves such an object again. */
const TOP: Record<UpstreamKind, number> = { invoice: 3, deposit: 2, withdrawal: 2 };

/**
 * The progress rank of an upstream status; -1 for a status this table does not know (treated
 * as older than everything, so an unknown word never overwrites known facts).
 *
 * @example
 * statusRank("invoice", "paid"); // 3
 * statusRank("invoice", "processing") < statusRank("invoice", "partially_paid"); // true
 */
export function statusRank(kind: UpstreamKind, status: string): number {
  return TABLES[kind][status] ?? -1;
}

/**
 * True when the service never moves an object in this status again.
 *
 * @example
 * isFinalAtService("withdrawal", "completed"); // true
 */
export function isFinalAtService(kind: UpstreamKind, status: string): boolean {
  return statusRank(kind, status) === TOP[kind];
}
