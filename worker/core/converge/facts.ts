/**
 * @module
 * Monotonic facts of one upstream object, and the acknowledgement rule built on them.
 *
 * Facts are what a read says about progress: the status and, for invoices, the crypto received
 * so far (`"0"` where the kind has no such amount). The service only moves forward in both, so:
 * - a read **older** than the known facts (a lower status rank, or less received) changes
 *   nothing: it is dropped before any business rule sees it;
 * - a webhook without a whole record is acknowledged only when the known facts after its
 *   refetch **cover** what it announced (rank and amount at least as high); otherwise the
 *   worker answers 503 and does not remember the delivery, so the service sends it again and
 *   the next read catches up. A whole record is itself a read (`delivery.ts`);
 * - a confirmed currency lock is a fact too (`LockFact`): the service answered it after
 *   replacing the payment terms it had, so a read at the same progress that still shows terms
 *   the lock replaced is older (a lagging replica), whatever its status and amount say.
 */
import { cmp } from "../../lib/money/decimal.ts";
import { isFinalAtService, statusRank, type UpstreamKind } from "./status-rank.ts";

/** The progress an upstream object shows in one read (or announces in one webhook). */
export interface Facts {
  status: string;
  /** Crypto received so far, canonical decimal; `"0"` for kinds without it. */
  received: string;
}

/**
 * True when `read` is older than `known`: a lower status rank, or less received.
 *
 * @example
 * isOlder("invoice", { status: "processing", received: "0" }, { status: "paid", received: "10" }); // true
 * isOlder("invoice", { status: "expired", received: "4" }, { status: "partially_paid", received: "4" }); // false
 */
export function isOlder(kind: UpstreamKind, read: Facts, known: Facts): boolean {
  return (
    statusRank(kind, read.status) < statusRank(kind, known.status) ||
    cmp(read.received, known.received) < 0
  );
}

/**
 * The newer of two fact sets (`known` when `read` is older).
 *
 * @example
 * newest("invoice", known, read).status;
 */
export function newest(kind: UpstreamKind, known: Facts | null, read: Facts): Facts {
  return known && isOlder(kind, read, known) ? known : read;
}

/**
 * True when `known` is at least as new as what a webhook announced: the rule for answering it
 * 2xx. A missing announced amount counts as zero; a missing status covers nothing but rank -1.
 *
 * @example
 * covers("invoice", { status: "processing", received: "0" }, { status: "paid", received: "10" }); // false → 503
 * covers("invoice", { status: "paid", received: "10" }, { status: "processing", received: "0" }); // true → 200
 * covers("invoice", { status: "processing", received: "0" }, { status: "suspended", received: "0" }); // false → 503
 */
export function covers(kind: UpstreamKind, known: Facts, announced: Facts): boolean {
  if (isOlder(kind, known, announced)) return false;
  // Same rank, other status (`processing` read for an announced `suspended`): the read may be
  // a lagging replica or the service may have moved back; only a final status settles it.
  const sameRank = statusRank(kind, known.status) === statusRank(kind, announced.status);
  return !sameRank || known.status === announced.status || isFinalAtService(kind, known.status);
}

/**
 * What a confirmed currency lock established about an invoice: the payment terms its answer
 * carried (`paymentTerms`), and the terms it and the locks before it replaced (newest last, at
 * most `MAX_REPLACED_TERMS`). Terms no lock replaced (a choice made elsewhere) are never undone.
 */
export interface LockFact {
  terms: string;
  replaced: string[];
}

/** How many replaced terms a lock fact keeps (locks are throttled to 10 a minute). */
export const MAX_REPLACED_TERMS = 16;

/**
 * The payment terms a read shows (currency, crypto amount, address), as one comparable
 * string; null while the object names no currency (such a read never replaces terms).
 *
 * @example
 * paymentTerms({ cryptoCurrencyCode: "ETH", cryptoAmountExpected: "0.02", address: "0xab…" }); // "ETH|0.02|0xab…"
 */
export function paymentTerms(read: {
  cryptoCurrencyCode: string | null;
  cryptoAmountExpected: string | null;
  address: string | null;
}): string | null {
  if (!read.cryptoCurrencyCode) return null;
  return `${read.cryptoCurrencyCode}|${read.cryptoAmountExpected ?? ""}|${read.address ?? ""}`;
}

/**
 * The lock fact after a lock answered `answered`, the attempt having shown `before`: every
 * terms replaced so far (the previous lock's included), never the answered ones.
 *
 * @example
 * afterLock(null, "BTC|0.001|tb1q…", "ETH|0.02|0xab…"); // { terms: "ETH|…", replaced: ["BTC|…"] }
 */
export function afterLock(
  previous: LockFact | null,
  before: string | null,
  answered: string,
): LockFact {
  const replaced = [...(previous?.replaced ?? []), previous?.terms ?? null, before].filter(
    (t): t is string => t !== null && t !== answered,
  );
  return { terms: answered, replaced: [...new Set(replaced)].slice(-MAX_REPLACED_TERMS) };
}

/**
 * True when `read` would undo a confirmed lock: no progress past `known` (same status rank,
 * as much received) and terms the lock replaced. Such a read is older than the lock's answer;
 * it changes nothing. Progress (a higher rank, more received) is always newer than the lock.
 *
 * @example
 * const lock = afterLock(null, "BTC|0.001|tb1q…", "ETH|0.02|0xab…");
 * undoesLock("invoice", { status: "created", received: "0" }, "BTC|0.001|tb1q…", { status: "created", received: "0" }, lock); // true
 */
export function undoesLock(
  kind: UpstreamKind,
  read: Facts,
  readTerms: string | null,
  known: Facts,
  lock: LockFact | null,
): boolean {
  if (!lock || readTerms === null || readTerms === lock.terms) return false;
  const sameProgress =
    statusRank(kind, read.status) === statusRank(kind, known.status) &&
    cmp(read.received, known.received) === 0;
  return sameProgress && lock.replaced.includes(readTerms);
}
