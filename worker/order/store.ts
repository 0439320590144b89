/**
 * @module
 * Typed reads and writes of an order's SQLite tables. No business rules here: those live in
 * `ledger.ts` and `status.ts`; this file only maps rows.
 */
import type { CryptoCurrency, InvoiceStatus } from "../api/contract.ts";

export interface OrderRow {
  checkoutId: string;
  invoiceNumber: string;
  amount: string;
  currency: string;
  fiatDecimalPlaces: number;
  description: string | null;
  customerId: string | null;
  returnUrl: string | null;
  refundCurrency: string | null;
  refundAddress: string | null;
  createdAt: string;
}

export interface AttemptRow {
  number: number;
  orderId: string;
  invoiceId: string;
  fiatAmount: string;
  status: InvoiceStatus;
  ended: boolean;
  paymentPageUrl: string;
  expiresAt: string | null;
  currency: CryptoCurrency | null;
  cryptoExpected: string | null;
  cryptoReceived: string;
  address: string | null;
  lockExpiresAt: string | null;
  cryptoApplied: string;
  fiatApplied: string;
  fiatOverpaid: string;
  settlement: Record<string, unknown> | null;
  updatedAt: string;
}

export interface PaymentRow {
  attempt: number;
  status: string;
  cryptoCode: string | null;
  cryptoAmount: string;
  fiatAmount: string;
  at: string;
}

type Row = Record<string, SqlStorageValue>;
const str = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : String(v));
const json = <T>(v: SqlStorageValue | undefined): T | null =>
  typeof v === "string" ? (JSON.parse(v) as T) : null;

/** Row access for one order. */
export class OrderStore {
  readonly sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  order(): OrderRow | null {
    const r = this.sql.exec<Row>("SELECT * FROM order_info WHERE id = 1").toArray()[0];
    if (!r) return null;
    return {
      checkoutId: String(r.checkout_id),
      invoiceNumber: String(r.invoice_number),
      amount: String(r.amount),
      currency: String(r.currency),
      fiatDecimalPlaces: Number(r.fiat_dp),
      description: str(r.description),
      customerId: str(r.customer_id),
      returnUrl: str(r.return_url),
      refundCurrency: str(r.refund_currency),
      refundAddress: str(r.refund_address),
      createdAt: String(r.created_at),
    };
  }

  insertOrder(o: OrderRow): void {
    this.sql.exec(
      `INSERT INTO order_info (id, checkout_id, invoice_number, amount, currency, fiat_dp, description,
        customer_id, return_url, created_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      o.checkoutId,
      o.invoiceNumber,
      o.amount,
      o.currency,
      o.fiatDecimalPlaces,
      o.description,
      o.customerId,
      o.returnUrl,
      o.createdAt,
    );
  }

  setRefundAddress(currency: string, address: string): void {
    this.sql.exec(
      "UPDATE order_info SET refund_currency = ?, refund_address = ? WHERE id = 1",
      currency,
      address,
    );
  }

  attempts(): AttemptRow[] {
    return this.sql.exec<Row>("SELECT * FROM attempts ORDER BY number").toArray().map(toAttempt);
  }

  currentAttempt(): AttemptRow | null {
    const r = this.sql
      .exec<Row>("SELECT * FROM attempts ORDER BY number DESC LIMIT 1")
      .toArray()[0];
    return r ? toAttempt(r) : null;
  }

  attemptByInvoiceId(invoiceId: string): AttemptRow | null {
    const r = this.sql
      .exec<Row>("SELECT * FROM attempts WHERE invoice_id = ?", invoiceId)
      .toArray()[0];
    return r ? toAttempt(r) : null;
  }

  /** Inserts or replaces an attempt row (the whole row is always written). */
  saveAttempt(a: AttemptRow): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO attempts (number, order_id, invoice_id, fiat_amount, status, ended,
        payment_page_url, expires_at, currency_json, crypto_expected, crypto_received, address,
        lock_expires_at, crypto_applied, fiat_applied, fiat_overpaid, settlement_json, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      a.number,
      a.orderId,
      a.invoiceId,
      a.fiatAmount,
      a.status,
      a.ended ? 1 : 0,
      a.paymentPageUrl,
      a.expiresAt,
      a.currency ? JSON.stringify(a.currency) : null,
      a.cryptoExpected,
      a.cryptoReceived,
      a.address,
      a.lockExpiresAt,
      a.cryptoApplied,
      a.fiatApplied,
      a.fiatOverpaid,
      a.settlement ? JSON.stringify(a.settlement) : null,
      a.updatedAt,
    );
  }

  insertPayment(p: PaymentRow): void {
    this.sql.exec(
      "INSERT INTO payments (attempt, status, crypto_code, crypto_amount, fiat_amount, at) VALUES (?, ?, ?, ?, ?, ?)",
      p.attempt,
      p.status,
      p.cryptoCode,
      p.cryptoAmount,
      p.fiatAmount,
      p.at,
    );
  }

  payments(): PaymentRow[] {
    return this.sql
      .exec<Row>("SELECT * FROM payments ORDER BY id")
      .toArray()
      .map((r) => ({
        attempt: Number(r.attempt),
        status: String(r.status),
        cryptoCode: str(r.crypto_code),
        cryptoAmount: String(r.crypto_amount),
        fiatAmount: String(r.fiat_amount),
        at: String(r.at),
      }));
  }
}

function toAttempt(r: Row): AttemptRow {
  return {
    number: Number(r.number),
    orderId: String(r.order_id),
    invoiceId: String(r.invoice_id),
    fiatAmount: String(r.fiat_amount),
    status: String(r.status) as InvoiceStatus,
    ended: Number(r.ended) === 1,
    paymentPageUrl: String(r.payment_page_url),
    expiresAt: str(r.expires_at),
    currency: json<CryptoCurrency>(r.currency_json),
    cryptoExpected: str(r.crypto_expected),
    cryptoReceived: String(r.crypto_received),
    address: str(r.address),
    lockExpiresAt: str(r.lock_expires_at),
    cryptoApplied: String(r.crypto_applied),
    fiatApplied: String(r.fiat_applied),
    fiatOverpaid: String(r.fiat_overpaid),
    settlement: json<Record<string, unknown>>(r.settlement_json),
    updatedAt: String(r.updated_at),
  };
}
