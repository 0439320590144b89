/**
 * @module
 * `x402_payments`: one row per x402 authorization an order was asked to settle, keyed by the
 * authorization's nonce (EIP-3009: a token contract never moves money twice for one nonce of
 * one payer, so the nonce is the payment's identity).
 *
 * Invariants (stated here, asserted where rows change, `apply-settlement.ts`):
 * - `status` only moves forward: settling → submitted → confirmed | failed, and `unknown`
 *   (the settle's answer was lost) → submitted | confirmed | failed;
 * - `applied` is set once, with `status = confirmed`, in the transaction that adds the row's
 *   fiat to the order's `wallet_paid`: money is applied exactly once;
 * - at most one row of an order is `settling` at a time (`pay-x402.ts`).
 */

import type { X402PaymentStatus } from "../../../packages/contract/src/http-api.ts";
import {
  flag,
  integer,
  optionalText,
  primaryKey,
  Table,
  text,
  withDefault,
} from "../../core/storage/table.ts";

/** One x402 payment of the order. */
export interface X402PaymentRow {
  /** The authorization's nonce, lowercase `0x` + 64 hex. */
  nonce: string;
  /** SHA-256 (hex) of the `PAYMENT-SIGNATURE` header: the same header again is the same request. */
  digest: string;
  /** The payer (EIP-55). */
  payer: string;
  /** Atomic units of the token. */
  value: string;
  /** The fiat the payment stands for (USD 1:1), with the order's decimal places. */
  fiatAmount: string;
  network: string;
  asset: string;
  payTo: string;
  status: X402PaymentStatus;
  /** The transaction hash, once known. */
  transaction: string | null;
  /** The service's settlement id, once read. */
  settlementId: string | null;
  errorReason: string | null;
  /** True once its fiat was added to the order (`confirmed` only). */
  applied: boolean;
  /** The settle's answer as the payer got it (JSON), replayed for the same header. */
  answer: string | null;
  createdAt: string;
  updatedAt: string;
  confirmedAt: string | null;
  /** Epoch ms of the next settlement read while the outcome is open; 0 when none is due. */
  nextReadAt: number;
  /** Settlement reads made so far (the follow's back-off). */
  reads: number;
}

/**
 * The table.
 *
 * @example
 * X402_PAYMENTS.select(sql, "WHERE status = 'settling'");
 */
export const X402_PAYMENTS = new Table<X402PaymentRow>("x402_payments", {
  nonce: primaryKey(text("nonce")),
  digest: text("digest"),
  payer: text("payer"),
  value: text("value"),
  fiatAmount: text("fiat_amount"),
  network: text("network"),
  asset: text("asset"),
  payTo: text("pay_to"),
  status: text<X402PaymentStatus>("status"),
  transaction: optionalText("transaction_hash"),
  settlementId: optionalText("settlement_id"),
  errorReason: optionalText("error_reason"),
  applied: flag("applied"),
  answer: optionalText("answer_json"),
  createdAt: text("created_at"),
  updatedAt: text("updated_at"),
  confirmedAt: optionalText("confirmed_at"),
  nextReadAt: withDefault(integer("next_read_at"), "0"),
  reads: withDefault(integer("reads"), "0"),
});

/**
 * What this isolate last read of an object's table, per SQL handle: the latest payment and the
 * earliest read due. Every write below forgets it (a rolled-back write too: it is only ever
 * cleared, never set by a write), so a read after a write asks SQLite again. Why: every
 * snapshot shows the latest payment and every `arm()` asks the next wake, on every webhook of
 * every order, while almost no order has a payment: with this, they cost no statement.
 */
const known = new WeakMap<SqlStorage, { latest?: X402PaymentRow | null; next?: number | null }>();

function forget(sql: SqlStorage): void {
  known.delete(sql);
}

function kept(sql: SqlStorage) {
  let entry = known.get(sql);
  if (!entry) {
    entry = {};
    known.set(sql, entry);
  }
  return entry;
}

/** Row access. */
export const x402Payments = {
  /**
   * Forgets what this isolate knows of the table: for a writer outside this module (a test or
   * the simulation forcing reads due with SQL of its own).
   */
  forgetKnown(sql: SqlStorage): void {
    forget(sql);
  },
  /** Records that the table was just made, empty (a new order): no payment, no read due. */
  knownEmpty(sql: SqlStorage): void {
    known.set(sql, { latest: null, next: null });
  },
  all(sql: SqlStorage): X402PaymentRow[] {
    return X402_PAYMENTS.select(sql, "ORDER BY created_at, nonce");
  },
  byNonce(sql: SqlStorage, nonce: string): X402PaymentRow | null {
    return X402_PAYMENTS.select(sql, "WHERE nonce = ?", nonce)[0] ?? null;
  },
  byTransaction(sql: SqlStorage, transaction: string): X402PaymentRow | null {
    return (
      X402_PAYMENTS.select(sql, "WHERE lower(transaction_hash) = lower(?)", transaction)[0] ?? null
    );
  },
  settling(sql: SqlStorage): X402PaymentRow | null {
    return X402_PAYMENTS.select(sql, "WHERE status = 'settling' LIMIT 1")[0] ?? null;
  },
  /** The latest payment (what the shopper sees), or null. */
  latest(sql: SqlStorage): X402PaymentRow | null {
    const entry = kept(sql);
    if (entry.latest === undefined) {
      entry.latest =
        X402_PAYMENTS.select(sql, "ORDER BY created_at DESC, nonce DESC LIMIT 1")[0] ?? null;
    }
    return entry.latest;
  },
  /** The earliest read due, epoch ms, or null. */
  nextReadAt(sql: SqlStorage): number | null {
    const entry = kept(sql);
    if (entry.next === undefined) {
      const row = sql
        .exec<{ at: number | null }>(
          "SELECT MIN(next_read_at) AS at FROM x402_payments WHERE next_read_at > 0",
        )
        .toArray()[0];
      entry.next = row?.at ?? null;
    }
    return entry.next;
  },
  due(sql: SqlStorage, now: number): X402PaymentRow[] {
    const next = x402Payments.nextReadAt(sql);
    if (next === null || next > now) return [];
    return X402_PAYMENTS.select(
      sql,
      "WHERE next_read_at > 0 AND next_read_at <= ? ORDER BY next_read_at LIMIT 5",
      now,
    );
  },
  /**
   * Turns every `settling` claim into `unknown`, read from `now` + 2 s: called when the object
   * starts, where a `settling` row can only be one whose settle call died with the last
   * instance (the call may have reached the facilitator). Answers how many.
   */
  orphansFollowed(sql: SqlStorage, now: number): number {
    forget(sql);
    return sql.exec(
      "UPDATE x402_payments SET status = 'unknown', next_read_at = ?, updated_at = ? WHERE status = 'settling'",
      now + 2_000,
      new Date(now).toISOString(),
    ).rowsWritten;
  },
  /** Forgets a claim that never reached the facilitator's settle (nothing moved). */
  remove(sql: SqlStorage, nonce: string): void {
    forget(sql);
    sql.exec("DELETE FROM x402_payments WHERE nonce = ? AND status = 'settling'", nonce);
  },
  save(sql: SqlStorage, row: X402PaymentRow): void {
    forget(sql);
    X402_PAYMENTS.write(sql, "INSERT OR REPLACE", row);
  },
};
