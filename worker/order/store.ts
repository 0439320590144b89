/**
 * @module
 * The order's own SQLite tables, each described once as columns (`core/storage/table.ts`): their
 * DDL (`schema.ts`), reads and writes are all made from that description. No business rules
 * here: those live in `ledger.ts` and `status.ts`; this file only maps rows.
 */

import type {
  CryptoCurrency,
  InvoiceStatus,
  LedgerPayment,
} from "../../packages/contract/src/http-api.ts";
import { columnAdded, type MigrationTrack } from "../core/storage/migrations.ts";
import {
  flag,
  integer,
  optionalJson,
  optionalText,
  primaryKey,
  SingleRowTable,
  Table,
  text,
  unique,
  withDefault,
  writeRow,
} from "../core/storage/table.ts";

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
  /**
   * Fiat applied by confirmed x402 payments (USD 1:1), with the fiat's decimal places: money
   * that went straight to the merchant's wallet, beside the attempts' invoices
   * (`order/x402/apply-settlement.ts` adds to it, once per payment).
   */
  walletPaid: string;
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

/** A stored payment: the ledger's shape (`LedgerPayment`), so the ledger shows the rows as kept. */
export type PaymentRow = LedgerPayment;

/**
 * `order_info`: the order itself (one row, `id = 1`).
 *
 * @example
 * ORDER_INFO.read(sql)?.invoiceNumber;
 */
export const ORDER_INFO = new SingleRowTable<OrderRow>("order_info", {
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
  walletPaid: withDefault(text("wallet_paid"), "'0'"),
});

/** `order_info`'s numbered migrations: step 1 adds `wallet_paid` to orders made before x402. */
export const ORDER_INFO_MIGRATIONS: MigrationTrack = {
  track: "order_info",
  steps: [
    columnAdded(1, "order_info", "wallet_paid", "TEXT NOT NULL DEFAULT '0'", "x402 money applied"),
  ],
};

/**
 * `attempts`: one row per upstream invoice (`<prefix>-<n>`, `-2`, `-3`, …), keyed by the
 * attempt's number.
 *
 * @example
 * ATTEMPTS.select(sql, "ORDER BY number");
 */
export const ATTEMPTS = new Table<AttemptRow>("attempts", {
  number: primaryKey(integer("number")),
  orderId: unique(text("order_id")),
  invoiceId: unique(text("invoice_id")),
  fiatAmount: text("fiat_amount"),
  status: text<InvoiceStatus>("status"),
  ended: flag("ended"),
  paymentPageUrl: text("payment_page_url"),
  expiresAt: optionalText("expires_at"),
  currency: optionalJson<CryptoCurrency>("currency_json"),
  cryptoExpected: optionalText("crypto_expected"),
  cryptoReceived: withDefault(text("crypto_received"), "'0'"),
  address: optionalText("address"),
  lockExpiresAt: optionalText("lock_expires_at"),
  cryptoApplied: withDefault(text("crypto_applied"), "'0'"),
  fiatApplied: withDefault(text("fiat_applied"), "'0'"),
  fiatOverpaid: withDefault(text("fiat_overpaid"), "'0'"),
  settlement: optionalJson<Record<string, unknown>>("settlement_json"),
  updatedAt: text("updated_at"),
});

/**
 * `payments`: money applied to the order, append-only (its own `id` orders it).
 *
 * @example
 * PAYMENTS.select(sql, "ORDER BY id");
 */
export const PAYMENTS = new Table<PaymentRow>(
  "payments",
  {
    attempt: integer("attempt"),
    status: text("status"),
    cryptoCode: optionalText("crypto_code"),
    cryptoAmount: text("crypto_amount"),
    fiatAmount: text("fiat_amount"),
    at: text("at"),
  },
  ["id INTEGER PRIMARY KEY AUTOINCREMENT"],
);

/** Row access for one order. */
export class OrderStore {
  readonly sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  order(): OrderRow | null {
    return ORDER_INFO.read(this.sql);
  }

  /** Inserts the order's row (a second insert throws: the caller checks `order()` first). */
  insertOrder(o: OrderRow): void {
    writeRow(this.sql, "INSERT", ORDER_INFO.name, ORDER_INFO.columns, o, { id: 1 });
  }

  /** Sets the fiat applied by confirmed x402 payments (inside the caller's transaction). */
  setWalletPaid(amount: string): void {
    this.sql.exec("UPDATE order_info SET wallet_paid = ? WHERE id = 1", amount);
  }

  setRefundAddress(currency: string, address: string): void {
    this.sql.exec(
      "UPDATE order_info SET refund_currency = ?, refund_address = ? WHERE id = 1",
      currency,
      address,
    );
  }

  attempts(): AttemptRow[] {
    return ATTEMPTS.select(this.sql, "ORDER BY number");
  }

  currentAttempt(): AttemptRow | null {
    return ATTEMPTS.select(this.sql, "ORDER BY number DESC LIMIT 1")[0] ?? null;
  }

  attemptByInvoiceId(invoiceId: string): AttemptRow | null {
    return ATTEMPTS.select(this.sql, "WHERE invoice_id = ?", invoiceId)[0] ?? null;
  }

  /**
   * The code of the crypto currency an attempt with invoice `invoiceId` holds: null when none
   * yet, undefined when no attempt has that invoice. One column, not a whole decoded row (the
   * webhook path asks it before the lane).
   */
  attemptCurrencyCode(invoiceId: string): string | null | undefined {
    const row = this.sql
      .exec<{ currency_json: string | null }>(
        "SELECT currency_json FROM attempts WHERE invoice_id = ?",
        invoiceId,
      )
      .toArray()[0];
    if (!row) return undefined;
    const currency = ATTEMPTS.columns.currency.decode(row.currency_json);
    return currency?.code ?? null;
  }

  /** True when an attempt of this order has invoice `invoiceId`. */
  hasInvoice(invoiceId: string): boolean {
    return (
      this.sql.exec("SELECT 1 FROM attempts WHERE invoice_id = ?", invoiceId).toArray().length > 0
    );
  }

  /** Inserts or replaces an attempt row (the whole row is always written). */
  saveAttempt(a: AttemptRow): void {
    ATTEMPTS.write(this.sql, "INSERT OR REPLACE", a);
  }

  insertPayment(p: PaymentRow): void {
    PAYMENTS.write(this.sql, "INSERT", p);
  }

  payments(): PaymentRow[] {
    return PAYMENTS.select(this.sql, "ORDER BY id");
  }
}
