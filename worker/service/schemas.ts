/**
 * @module
 * Schemas of the service's answers (zod, checked by `lib/schema.ts`), applied to `parseExactJson`
 * output (so every JSON number arrives as a `JsonNumber` with its source text, distinct from a
 * JSON string). They normalise as they validate:
 * - amounts: a JSON number only (the wire sends numbers; `"12.5"` fails) → canonical decimal
 *   string (`toDecimal`), so the client's output stays decimal strings;
 * - integers (decimalPlaces, page counts): a JSON integer only → safe non-negative integer;
 * - text fields: JSON strings only (a number where text belongs fails);
 * - fields the service may omit → `null`.
 * Each schema is typed against the interfaces in `types.ts`, so the compiler keeps them equal.
 */
import * as z from "zod/mini";
import { DEPOSIT_STATUSES, INVOICE_STATUSES, WITHDRAWAL_STATUSES } from "../lib/api/statuses.ts";
import { toDecimal } from "../lib/money/decimal.ts";
import { JsonNumber } from "../lib/money/exact-json.ts";
import type { Schema } from "../lib/schema.ts";
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
} from "./types.ts";

/** A JSON number → canonical decimal string. */
export const amount = z.pipe(
  z
    .instanceof(JsonNumber, { error: "expected a number" })
    .check(z.refine((n: JsonNumber) => isNumeral(n.source), "number out of range")),
  z.transform((n: JsonNumber) => toDecimal(n.source)),
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
export const count = z.pipe(
  z
    .instanceof(JsonNumber, { error: "expected an integer" })
    .check(
      z.refine((n: JsonNumber) => /^\d{1,15}$/.test(n.source), "expected a non-negative integer"),
    ),
  z.transform((n: JsonNumber) => Number.parseInt(n.source, 10)),
);

/** Optional-or-null field → `null` when absent (never `undefined`). */
export function orNull<T extends z.ZodMiniType>(schema: T) {
  return z.pipe(
    z.nullish(schema),
    z.transform((value: z.output<T> | null | undefined) => value ?? null),
  );
}

const text = z.string();

export const cryptoCurrencySchema: Schema<WireCryptoCurrency> = z.object({
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
  depositNetworkFee: orNull(z.object({ amount, quotedAt: orNull(text) })),
});

export const fiatCurrencySchema: Schema<FiatCurrency> = z.object({
  code: text,
  name: text,
  decimalPlaces: count,
  minInvoiceAmount: amount,
});

export const settlementSchema: Schema<Settlement> = z.object({
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

export const invoiceSchema: Schema<Invoice> = z.object({
  id: text,
  accountId: orNull(text),
  orderId: orNull(text),
  amount,
  fiatCurrencyCode: text,
  items: orNull(z.array(z.object({ name: text, quantity: amount, cost: amount }))),
  status: z.enum(INVOICE_STATUSES),
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
export const lockedInvoiceSchema: Schema<LockedInvoice> = z.pipe(
  invoiceSchema,
  z.transform((invoice: Invoice, ctx) => {
    for (const field of ["cryptoCurrencyCode", "cryptoAmountExpected", "address"] as const) {
      if (invoice[field] === null) {
        ctx.issues.push({
          code: "custom",
          path: [field],
          message: "required after a currency lock",
          input: invoice,
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
  return z.pipe(
    z.object({
      data: z.array(item),
      total: count,
      page: count,
      limit: count,
      hasMore: z.boolean(),
    }),
    z.transform(({ data, ...rest }) => ({ items: data, ...rest })),
  );
}

export const invoicePageSchema: Schema<InvoicePage> = pageOf(invoiceSchema);

export const depositSchema: Schema<Deposit> = z.object({
  id: text,
  orderId: orNull(text),
  cryptoCurrencyCode: orNull(text),
  status: orNull(z.enum(DEPOSIT_STATUSES)),
  minimumAmount: orNull(amount),
  // The create answer always has it; a GET or a webhook may omit it (SDK `Deposit.address?`).
  address: orNull(text),
  createdAt: text,
  expiresAt: orNull(text),
  qrCode: orNull(text),
  settlement: orNull(settlementSchema),
});

export const withdrawalQuoteSchema: Schema<WithdrawalQuote> = z.object({
  quoteId: text,
  orderId: text,
  cryptoCurrencyCode: text,
  address: text,
  amount,
  autoConvert: orNull(
    z.object({ fromAssetCode: text, toAssetCode: text, fromAmount: amount, toAmount: amount }),
  ),
  totalDeduction: amount,
  fee: z.object({
    feeNative: amount,
    feeCurrency: text,
    feeInCryptoCurrencyCode: amount,
    feeUsd: orNull(amount),
  }),
  expiresAt: text,
});

export const withdrawalSchema: Schema<Withdrawal> = z.object({
  id: text,
  orderId: orNull(text),
  accountId: orNull(text),
  cryptoCurrencyCode: text,
  address: text,
  amount,
  status: z.enum(WITHDRAWAL_STATUSES),
  transactionHash: orNull(text),
  feeAmount: orNull(amount),
  debitedAmount: orNull(amount),
  createdAt: text,
  updatedAt: orNull(text),
  quoteId: orNull(text),
});

export const accountSchema: Schema<Account> = z.object({
  id: text,
  name: orNull(text),
  createdAt: orNull(text),
});

/**
 * `{ data: T }`, the success envelope of every single-object or plain-list answer.
 * @example check(envelope(z.array(accountSchema)), { data: [] }); // { success: true, data: [] }
 */
export function envelope<T>(data: Schema<T>): Schema<T> {
  return z.pipe(
    z.object({ data }),
    z.transform((body: { data: T }) => body.data),
  );
}

/** The error body: `{ code, message, extension? }`; loose, since it is only read for hints. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.optional(z.string()),
  extension: z.nullish(z.record(z.string(), z.unknown())),
});

export const depositPageSchema: Schema<Page<Deposit>> = pageOf(depositSchema);
export const withdrawalPageSchema: Schema<Page<Withdrawal>> = pageOf(withdrawalSchema);
