/**
 * @module
 * TEMPORARY: the valibot schema as the worker ran it before zod/mini (differential test only).
 * Schemas of the service's answers (valibot, `lib/schema.ts`), applied to `parseExactJson`
 * output (so every JSON number arrives as a `JsonNumber` with its source text, distinct from a
 * JSON string). They normalise as they validate:
 * - amounts: a JSON number only (the wire sends numbers; `"12.5"` fails) → canonical decimal
 *   string (`toDecimal`), so the client's output stays decimal strings;
 * - integers (decimalPlaces, page counts): a JSON integer only → safe non-negative integer;
 * - text fields: JSON strings only (a number where text belongs fails);
 * - fields the service may omit → `null`.
 * Each schema is typed against the interfaces in `types.ts`, so the compiler keeps them equal.
 */
import * as v from "valibot";
import {
  DEPOSIT_STATUSES,
  INVOICE_STATUSES,
  WITHDRAWAL_STATUSES,
} from "../../../worker/lib/api/statuses.ts";
import { toDecimal } from "../../../worker/lib/money/decimal.ts";
import { JsonNumber } from "../../../worker/lib/money/exact-json.ts";
import type {
  Account,
  Deposit,
  FiatCurrency,
  Invoice,
  InvoicePage,
  LockedInvoice,
  Page,
  Settlement,
  WireCryptoCurrency,
  Withdrawal,
  WithdrawalQuote,
} from "../../../worker/service/types.ts";
import { object, plainRecord, type Schema } from "./schema.ts";

/** A JSON number → canonical decimal string. */
export const amount = v.pipe(
  v.instance(JsonNumber, "expected a number"),
  v.check((n: JsonNumber) => isNumeral(n.source), "number out of range"),
  v.transform((n: JsonNumber) => toDecimal(n.source)),
);

function isNumeral(source: string): boolean {
  try {
    toDecimal(source);
    return true;
  } catch {
    return false;
  }
}

/** A JSON integer → non-negative safe integer. */
export const count = v.pipe(
  v.instance(JsonNumber, "expected an integer"),
  v.check((n: JsonNumber) => /^\d{1,15}$/.test(n.source), "expected a non-negative integer"),
  v.transform((n: JsonNumber) => Number.parseInt(n.source, 10)),
);

/** Optional-or-null field → `null` when absent (never `undefined`). */
const orNull = <T>(schema: Schema<T>) => v.nullish(schema, null) as Schema<T | null>;

const text = v.string();

/** A JSON boolean; refused as "Invalid input". */
const flag = v.boolean();

export const cryptoCurrencySchema: Schema<WireCryptoCurrency> = object({
  code: text,
  name: text,
  network: text,
  tokenType: orNull(text),
  decimalPlaces: count,
  minDepositAmount: amount,
  minWithdrawalAmount: amount,
  depositCommission: amount,
  contractAddress: orNull(text),
  imageUrl: orNull(text),
  addressMask: orNull(text),
  depositNetworkFee: orNull(object({ amount, quotedAt: orNull(text) })),
});

export const fiatCurrencySchema: Schema<FiatCurrency> = object({
  code: text,
  name: text,
  decimalPlaces: count,
  minInvoiceAmount: amount,
});

export const settlementSchema: Schema<Settlement> = object({
  amountPaid: amount,
  commissionAmount: amount,
  networkFeeAmount: orNull(amount),
  networkFeeCurrencyCode: orNull(text),
  depositNetworkFeeAmount: orNull(amount),
  netAmount: amount,
  amountPaidUsd: orNull(amount),
  commissionAmountUsd: orNull(amount),
  networkFeeAmountUsd: orNull(amount),
  depositNetworkFeeAmountUsd: orNull(amount),
  netAmountUsd: orNull(amount),
  txHash: orNull(text),
  completedAt: orNull(text),
});

export const invoiceSchema: Schema<Invoice> = object({
  id: text,
  accountId: orNull(text),
  orderId: orNull(text),
  amount,
  fiatCurrencyCode: text,
  items: orNull(v.array(object({ name: text, quantity: amount, cost: amount }))),
  status: v.picklist(INVOICE_STATUSES),
  cryptoCurrencyCode: orNull(text),
  cryptoAmountExpected: orNull(amount),
  cryptoAmountReceived: orNull(amount),
  address: orNull(text),
  txHash: orNull(text),
  settlement: orNull(settlementSchema),
  expiresAt: orNull(text),
  createdAt: text,
  paidAt: orNull(text),
  paymentPageUrl: text,
  customPayload: orNull(text),
  description: orNull(text),
  number: orNull(text),
});

/** After the sandbox's currency lock the payment fields must be set. */
export const lockedInvoiceSchema: Schema<LockedInvoice> = v.pipe(
  invoiceSchema,
  v.rawTransform(({ dataset, addIssue }) => {
    const invoice = dataset.value;
    for (const field of ["cryptoCurrencyCode", "cryptoAmountExpected", "address"] as const) {
      if (invoice[field] === null) {
        addIssue({
          message: "required after a currency lock",
          path: [
            { type: "object", origin: "value", input: { ...invoice }, key: field, value: null },
          ],
        });
      }
    }
    return invoice as LockedInvoice;
  }),
);

/**
 * A page of a list endpoint (`GET /invoice/list`, `/deposit/list`, `/withdrawal/list`):
 * `{data, total, page, limit, hasMore}`, each record checked by the kind's own schema.
 */
function pageOf<T>(item: Schema<T>): Schema<Page<T>> {
  return v.pipe(
    object({ data: v.array(item), total: count, page: count, limit: count, hasMore: flag }),
    v.transform(({ data, ...rest }) => ({ items: data, ...rest })),
  );
}

export const invoicePageSchema: Schema<InvoicePage> = pageOf(invoiceSchema);

export const depositSchema: Schema<Deposit> = object({
  id: text,
  orderId: orNull(text),
  cryptoCurrencyCode: orNull(text),
  status: orNull(v.picklist(DEPOSIT_STATUSES)),
  minimumAmount: orNull(amount),
  // The create answer always has it; a GET or a webhook may omit it (SDK `Deposit.address?`).
  address: orNull(text),
  createdAt: text,
  expiresAt: orNull(text),
  qrCode: orNull(text),
  settlement: orNull(settlementSchema),
});

export const withdrawalQuoteSchema: Schema<WithdrawalQuote> = object({
  quoteId: text,
  orderId: text,
  cryptoCurrencyCode: text,
  address: text,
  amount,
  autoConvert: orNull(
    object({ fromAssetCode: text, toAssetCode: text, fromAmount: amount, toAmount: amount }),
  ),
  totalDeduction: amount,
  fee: object({
    feeNative: amount,
    feeCurrency: text,
    feeInCryptoCurrencyCode: amount,
    feeUsd: orNull(amount),
  }),
  expiresAt: text,
});

export const withdrawalSchema: Schema<Withdrawal> = object({
  id: text,
  orderId: orNull(text),
  accountId: orNull(text),
  cryptoCurrencyCode: text,
  address: text,
  amount,
  status: v.picklist(WITHDRAWAL_STATUSES),
  transactionHash: orNull(text),
  feeAmount: orNull(amount),
  debitedAmount: orNull(amount),
  createdAt: text,
  updatedAt: orNull(text),
  quoteId: orNull(text),
});

export const accountSchema: Schema<Account> = object({
  id: text,
  name: orNull(text),
  createdAt: orNull(text),
});

/**
 * `{ data: T }`, the success envelope of every single-object or plain-list answer.
 * @example check(envelope(v.array(accountSchema)), { data: [] }); // { success: true, data: [] }
 */
export function envelope<T>(data: Schema<T>): Schema<T> {
  return v.pipe(
    object({ data }),
    v.transform((body) => body.data),
  );
}

/** The error body: `{ code, message, extension? }`; loose, since it is only read for hints. */
export const errorBodySchema = object({
  code: v.string(),
  message: v.optional(v.string()),
  extension: v.nullish(plainRecord()),
});

export const depositPageSchema: Schema<Page<Deposit>> = pageOf(depositSchema);
export const withdrawalPageSchema: Schema<Page<Withdrawal>> = pageOf(withdrawalSchema);
