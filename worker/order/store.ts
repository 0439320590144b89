/**
 * @module
 * Typed reads and writes of an order's SQLite tables, each described once as columns
 * (`storage/table.ts`). No business rules here: those live in `ledger.ts` and `status.ts`;
 * this file only maps rows.
 */
import type { CryptoCurrency, InvoiceStatus } from "../api/contract.ts";
import {
  type Columns,
  decodeRow,
  flag,
  integer,
  optionalJson,
  optionalText,
  type Row,
  text,
  writeRow,
} from "../storage/table.ts";

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

/** `order_info` (one row, `id = 1`); the DDL of every table is in `schema.ts`. */
const ORDER_INFO: Columns<OrderRow> = {
  checkoutId: text("checkout_id"),
  invoiceNumber: text("invoice_number"),
  amount: text("amount"),
  currency: text("currency"),
  fiatDecimalPlaces: integer("fiat_dp"),
  description: optionalText("description"),
  customerId: optionalText("customer_id"),
  returnUrl: optionalText("return_url"),
  refundCurrency: optionalText("refund_currency"),
  refundAddress: optionalText("refund_address"),
  createdAt: text("created_at"),
};

/** `attempts`: one row per upstream invoice, keyed by the attempt's number. */
const ATTEMPTS: Columns<AttemptRow> = {
  number: integer("number"),
  orderId: text("order_id"),
  invoiceId: text("invoice_id"),
  fiatAmount: text("fiat_amount"),
  status: text<InvoiceStatus>("status"),
  ended: flag("ended"),
  paymentPageUrl: text("payment_page_url"),
  expiresAt: optionalText("expires_at"),
  currency: optionalJson<CryptoCurrency>("currency_json"),
  cryptoExpected: optionalText("crypto_expected"),
  cryptoReceived: text("crypto_received"),
  address: optionalText("address"),
  lockExpiresAt: optionalText("lock_expires_at"),
  cryptoApplied: text("crypto_applied"),
  fiatApplied: text("fiat_applied"),
  fiatOverpaid: text("fiat_overpaid"),
  settlement: optionalJson<Record<string, unknown>>("settlement_json"),
  updatedAt: text("updated_at"),
};

/** `payments`: money applied to the order, append-only (its own `id` orders it). */
const PAYMENTS: Columns<PaymentRow> = {
  attempt: integer("attempt"),
  status: text("status"),
  cryptoCode: optionalText("crypto_code"),
  cryptoAmount: text("crypto_amount"),
  fiatAmount: text("fiat_amount"),
  at: text("at"),
};

/** Row access for one order. */
export class OrderStore {
  readonly sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  #attempts(query: string, ...binds: SqlStorageValue[]): AttemptRow[] {
    return this.sql
      .exec<Row>(`SELECT * FROM attempts ${query}`, ...binds)
      .toArray()
      .map((r) => decodeRow(ATTEMPTS, r));
  }

  order(): OrderRow | null {
    const r = this.sql.exec<Row>("SELECT * FROM order_info WHERE id = 1").toArray()[0];
    return r ? decodeRow(ORDER_INFO, r) : null;
  }

  /** Inserts the order's row (a second insert throws: the caller checks `order()` first). */
  insertOrder(o: OrderRow): void {
    writeRow(this.sql, "INSERT", "order_info", ORDER_INFO, o, { id: 1 });
  }

  setRefundAddress(currency: string, address: string): void {
    this.sql.exec(
      "UPDATE order_info SET refund_currency = ?, refund_address = ? WHERE id = 1",
      currency,
      address,
    );
  }

  attempts(): AttemptRow[] {
    return this.#attempts("ORDER BY number");
  }

  currentAttempt(): AttemptRow | null {
    return this.#attempts("ORDER BY number DESC LIMIT 1")[0] ?? null;
  }

  attemptByInvoiceId(invoiceId: string): AttemptRow | null {
    return this.#attempts("WHERE invoice_id = ?", invoiceId)[0] ?? null;
  }

  /** Inserts or replaces an attempt row (the whole row is always written). */
  saveAttempt(a: AttemptRow): void {
    writeRow(this.sql, "INSERT OR REPLACE", "attempts", ATTEMPTS, a);
  }

  insertPayment(p: PaymentRow): void {
    writeRow(this.sql, "INSERT", "payments", PAYMENTS, p);
  }

  payments(): PaymentRow[] {
    return this.sql
      .exec<Row>("SELECT * FROM payments ORDER BY id")
      .toArray()
      .map((r) => decodeRow(PAYMENTS, r));
  }
}
