/**
 * @module
 * The gateway module's status table (the service's API) as a pure function: what one authoritative invoice state does
 * to one attempt of the merchant's order.
 *
 * Exactly-once by construction: an attempt remembers the crypto and fiat it has already
 * applied, so applying the same state twice (a duplicate webhook) yields a zero delta, and an
 * older state (a reordered webhook) is refused by `acceptsStatus`.
 *
 * Money follows `cryptoAmountReceived`, not the status label: an invoice that is already
 * `expired`/`failed`/`cancelled` when we read it but reports crypto received is a partial
 * payment that ended. It is applied exactly like `partially_paid` and recorded as
 * `partially_paid` + `ended` — the same row as seeing `partially_paid` then `expired` — so the
 * ledger does not depend on which intermediate states we happened to read. `ended` is sticky:
 * once the service ended an attempt, no later (possibly stale) state reopens it.
 *
 * Fiat value of crypto received (exact decimals, rounded down to the fiat's decimal places):
 * - `paid` / `overpaid`: the attempt's whole fiat amount (the service says the balance is cleared);
 *   the excess crypto's fiat value is recorded as overpaid;
 * - `partially_paid`: `received × fiatAmount ÷ expected`, capped at the fiat amount.
 */
import type { InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import { add, cmp, div, isPositive, min, mul, sub } from "../lib/money/decimal.ts";
import { acceptsStatus, ENDED, FINAL, SETTLED } from "./status.ts";

/** What an attempt has applied so far. */
export interface AttemptBalance {
  status: InvoiceStatus;
  fiatAmount: string;
  cryptoApplied: string;
  fiatApplied: string;
  fiatOverpaid: string;
  ended: boolean;
}

/** The facts of an authoritative invoice that matter to the ledger. */
export interface InvoiceFacts {
  status: InvoiceStatus;
  cryptoAmountExpected: string | null;
  cryptoAmountReceived: string | null;
}

/** The outcome of applying one invoice state. */
export interface AttemptEffect {
  changed: boolean;
  next: AttemptBalance;
  /** A payment to record, when money was applied by this state. */
  payment: { cryptoAmount: string; fiatAmount: string } | null;
}

/**
 * Applies an invoice state to an attempt.
 *
 * @example
 * const effect = applyInvoiceState(balance, { status: "paid", cryptoAmountExpected: "10", cryptoAmountReceived: "10" }, 2);
 * effect.payment // { cryptoAmount: "10", fiatAmount: "49.90" } on the first call, null on a duplicate
 */
export function applyInvoiceState(
  current: AttemptBalance,
  facts: InvoiceFacts,
  fiatDecimalPlaces: number,
): AttemptEffect {
  const received = facts.cryptoAmountReceived ?? "0";
  const moreReceived = cmp(received, current.cryptoApplied) > 0;
  const endsNow = ENDED.has(facts.status) && !current.ended;
  const status = effectiveStatus(facts.status, received);
  if (!acceptsStatus(current.status, status, moreReceived)) {
    // Refused (older or equal state), but the service may have ended the attempt meanwhile.
    return endsNow && !FINAL.has(current.status)
      ? { changed: true, next: { ...current, ended: true }, payment: null }
      : { changed: false, next: current, payment: null };
  }
  const next: AttemptBalance = { ...current, status, ended: current.ended || endsNow };
  if (!SETTLED.has(status)) return { changed: true, next, payment: null };

  const expected = facts.cryptoAmountExpected;
  let fiatTotal: string;
  if (status === "paid" || status === "overpaid") {
    fiatTotal = current.fiatAmount;
    if (expected && isPositive(expected) && cmp(received, expected) > 0) {
      const excess = sub(received, expected);
      next.fiatOverpaid = div(mul(excess, current.fiatAmount), expected, fiatDecimalPlaces, "down");
    }
  } else if (expected && isPositive(expected)) {
    const value = div(mul(received, current.fiatAmount), expected, fiatDecimalPlaces, "down");
    fiatTotal = min(value, current.fiatAmount);
  } else {
    fiatTotal = current.fiatApplied;
  }
  const cryptoDelta = moreReceived ? sub(received, current.cryptoApplied) : "0";
  const fiatDelta =
    cmp(fiatTotal, current.fiatApplied) > 0 ? sub(fiatTotal, current.fiatApplied) : "0";
  next.cryptoApplied = moreReceived ? received : current.cryptoApplied;
  next.fiatApplied = add(current.fiatApplied, fiatDelta);
  const payment =
    isPositive(cryptoDelta) || isPositive(fiatDelta)
      ? { cryptoAmount: cryptoDelta, fiatAmount: fiatDelta }
      : null;
  return { changed: true, next, payment };
}

/**
 * The status the ledger records for an invoice state: an ended invoice that reports crypto
 * received is a partial payment (its money is applied; `ended` is kept separately).
 */
export function effectiveStatus(status: InvoiceStatus, received: string): InvoiceStatus {
  return ENDED.has(status) && isPositive(received) ? "partially_paid" : status;
}
