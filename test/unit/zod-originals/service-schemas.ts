/**
 * @module
 * The zod original of `service-schemas.ts` as it was before the worker's schemas moved to valibot (commit
 * f560703), kept verbatim (its schemas and what they need; the rest is the worker's) for the differential
 * tests only (`test/unit/schemas-valibot.test.ts`; never imported by the worker).
 */
import * as z from "zod/mini";
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
function orNull<T extends z.ZodMiniType>(schema: T) {
  return z.pipe(
    z.nullish(schema),
    z.transform((value: z.output<T> | null | undefined) => value ?? null),
  );
}

const text = z.string();

/**
 * A JSON boolean: zod's `z.boolean()` test as a custom check (its boolean schema is ≈ 0.1 KB of
 * the gzip bundle for this one field, README "Worker bundle size"); refused as "Invalid input".
 */
const flag = z.custom<boolean>((value) => typeof value === "boolean");

export const cryptoCurrencySchema: z.ZodMiniType<WireCryptoCurrency> = z.object({
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

export const fiatCurrencySchema: z.ZodMiniType<FiatCurrency> = z.object({
  code: text,
  name: text,
  decimalPlaces: count,
  minInvoiceAmount: amount,
});

export const settlementSchema: z.ZodMiniType<Settlement> = z.object({
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

export const invoiceSchema: z.ZodMiniType<Invoice> = z.object({
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
export const lockedInvoiceSchema = z.pipe(
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
) as z.ZodMiniType<LockedInvoice>;

/**
 * A page of a list endpoint (`GET /invoice/list`, `/deposit/list`, `/withdrawal/list`):
 * `{data, total, page, limit, hasMore}`, each record checked by the kind's own schema.
 */
function pageOf<T>(item: z.ZodMiniType<T>): z.ZodMiniType<Page<T>> {
  return z.pipe(
    z.object({
      data: z.array(item),
      total: count,
      page: count,
      limit: count,
      hasMore: flag,
    }),
    z.transform(
      ({
        data,
        ...rest
      }: {
        data: T[];
        total: number;
        page: number;
        limit: number;
        hasMore: boolean;
      }) => ({ items: data, ...rest }),
    ),
  ) as z.ZodMiniType<Page<T>>;
}

export const invoicePageSchema: z.ZodMiniType<InvoicePage> = pageOf(invoiceSchema);

export const depositSchema: z.ZodMiniType<Deposit> = z.object({
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

export const withdrawalQuoteSchema: z.ZodMiniType<WithdrawalQuote> = z.object({
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

export const withdrawalSchema: z.ZodMiniType<Withdrawal> = z.object({
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

export const accountSchema: z.ZodMiniType<Account> = z.object({
  id: text,
  name: orNull(text),
  createdAt: orNull(text),
});

/**
 * `{ data: T }`, the success envelope of every single-object or plain-list answer.
 * @example envelope(z.array(accountSchema)).parse({ data: [] }); // []
 */
export function envelope<T>(data: z.ZodMiniType<T>): z.ZodMiniType<T> {
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

export const depositPageSchema: z.ZodMiniType<Page<Deposit>> = pageOf(depositSchema);
export const withdrawalPageSchema: z.ZodMiniType<Page<Withdrawal>> = pageOf(withdrawalSchema);
