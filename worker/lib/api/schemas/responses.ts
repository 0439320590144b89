/**
 * @module
 * What the widget-facing routes answer, as zod schemas: currencies, checkout and top-up
 * snapshots, payouts. Each is checked against its type in `packages/contract/src/http-api.ts` (`Same`), so the
 * published document (`../openapi.ts`) and the TypeScript contract cannot drift; the worker
 * tests validate every real answer against the document (`test/worker/openapi-conformance.ts`).
 */
import * as z from "zod/mini";
import type {
  AttemptView,
  CheckoutSnapshot,
  CryptoCurrency,
  DepositSnapshot,
  FiatCurrency,
  PaymentInstructions,
  PayoutRequest,
  PayoutView,
  RefundView,
} from "../../../../packages/contract/src/http-api.ts";
import { DEPOSIT_STATUSES, INVOICE_STATUSES, WITHDRAWAL_STATUSES } from "../statuses.ts";
import { decimalString, type Same } from "./common.ts";
import type { payoutQuoteBody } from "./requests.ts";

const nullableString = z.nullable(z.string());

export const invoiceStatus = z.enum(INVOICE_STATUSES);
export const depositStatus = z.enum(DEPOSIT_STATUSES);
export const withdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export const orderState = z.enum(["unpaid", "partially_paid", "paid", "refunded"]);

export const cryptoCurrency = z.object({
  code: z.string(),
  name: z.string(),
  network: z.string(),
  networkName: z.string(),
  tokenType: nullableString,
  decimalPlaces: z.int(),
  minDepositAmount: decimalString,
  minWithdrawalAmount: decimalString,
  depositCommission: decimalString,
  contractAddress: nullableString,
  imageUrl: nullableString,
  addressMask: nullableString,
  depositNetworkFee: z.optional(
    z.nullable(z.object({ amount: decimalString, quotedAt: nullableString })),
  ),
});

export const fiatCurrency = z.object({
  code: z.string(),
  name: z.string(),
  decimalPlaces: z.int(),
  minInvoiceAmount: decimalString,
});

export const paymentInstructions = z.object({
  cryptoCurrencyCode: z.string(),
  currencyName: z.string(),
  network: z.string(),
  networkName: z.string(),
  decimalPlaces: z.int(),
  amount: decimalString,
  received: decimalString,
  remaining: decimalString,
  address: z.string(),
  walletUri: nullableString,
  expiresAt: nullableString,
  refund: z.object({ excess: decimalString, minimum: decimalString, possible: z.boolean() }),
});

export const attemptView = z.object({
  number: z.int(),
  orderId: z.string(),
  status: invoiceStatus,
  paymentPageUrl: z.string(),
  expiresAt: nullableString,
  payment: z.nullable(paymentInstructions),
});

export const refundView = z.object({
  orderId: z.string(),
  cryptoCurrencyCode: z.string(),
  amount: decimalString,
  address: nullableString,
  status: withdrawalStatus,
});

export const x402Offer = z.object({
  network: z.string(),
  chainId: z.int(),
  chainName: z.string(),
  symbol: z.string(),
  decimals: z.int(),
  amount: decimalString,
});

export const x402PaymentView = z.object({
  status: z.enum(["settling", "submitted", "confirmed", "failed", "unknown"]),
  payer: z.string(),
  amount: decimalString,
  fiatAmount: decimalString,
  network: z.string(),
  transaction: nullableString,
  errorReason: nullableString,
  createdAt: z.string(),
  confirmedAt: nullableString,
});

export const checkoutSnapshot = z.object({
  id: z.string(),
  kind: z.literal("invoice"),
  invoiceNumber: z.string(),
  displayName: z.string(),
  description: nullableString,
  amount: decimalString,
  currency: z.string(),
  fiatDecimalPlaces: z.int(),
  sandbox: z.boolean(),
  mode: z.enum(["in-page", "hosted"]),
  orderState,
  amountPaid: decimalString,
  amountDue: decimalString,
  amountOverpaid: decimalString,
  amountShortfall: z.optional(decimalString),
  underpaid: z.optional(
    z.nullable(
      z.object({
        reason: z.literal("remainder_below_minimum"),
        amountDue: decimalString,
        minimum: decimalString,
      }),
    ),
  ),
  attempt: attemptView,
  canRetry: z.boolean(),
  final: z.boolean(),
  refundAddress: z.nullable(z.object({ cryptoCurrencyCode: z.string(), address: z.string() })),
  refunds: z.optional(z.array(refundView)),
  returnUrl: nullableString,
  x402: z.optional(z.nullable(x402Offer)),
  x402Payment: z.optional(z.nullable(x402PaymentView)),
  seq: z.int(),
  updatedAt: z.string(),
});

export const depositSnapshot = z.object({
  id: z.string(),
  kind: z.literal("deposit"),
  topUpId: z.string(),
  displayName: z.string(),
  sandbox: z.boolean(),
  cryptoCurrencyCode: z.string(),
  currencyName: z.string(),
  network: z.string(),
  networkName: z.string(),
  decimalPlaces: z.int(),
  address: z.string(),
  minimumAmount: z.nullable(decimalString),
  minDepositAmount: decimalString,
  depositCommission: decimalString,
  depositCommissionPercent: decimalString,
  depositNetworkFee: z.nullable(decimalString),
  walletUri: nullableString,
  expiresAt: nullableString,
  status: depositStatus,
  settlement: z.nullable(
    z.object({
      received: decimalString,
      networkFee: decimalString,
      commission: decimalString,
      net: decimalString,
      source: z.enum(["service", "computed"]),
    }),
  ),
  final: z.boolean(),
  seq: z.int(),
  updatedAt: z.string(),
});

export const payoutView = z.object({
  orderId: z.string(),
  kind: z.enum(["payout", "refund"]),
  invoiceNumber: nullableString,
  status: z.enum(["quoted", "uncertain", ...withdrawalStatus.options]),
  cryptoCurrencyCode: z.string(),
  network: z.string(),
  address: z.string(),
  amount: decimalString,
  fee: z.object({
    feeNative: decimalString,
    feeCurrency: z.string(),
    feeInCryptoCurrencyCode: decimalString,
    feeUsd: z.nullable(decimalString),
  }),
  totalDeduction: decimalString,
  expiresAt: z.string(),
  quoteId: z.string(),
  withdrawal: z.nullable(
    z.object({
      id: z.string(),
      status: withdrawalStatus,
      transactionHash: nullableString,
      feeAmount: z.nullable(decimalString),
      debitedAmount: z.nullable(decimalString),
      createdAt: z.string(),
      updatedAt: nullableString,
    }),
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
});

// Each schema is its contract type, both ways: a field added to one and not the other fails
// `npm run typecheck`.
const checked: [
  Same<z.output<typeof cryptoCurrency>, CryptoCurrency>,
  Same<z.output<typeof fiatCurrency>, FiatCurrency>,
  Same<z.output<typeof paymentInstructions>, PaymentInstructions>,
  Same<z.output<typeof attemptView>, AttemptView>,
  Same<z.output<typeof refundView>, RefundView>,
  Same<z.output<typeof checkoutSnapshot>, CheckoutSnapshot>,
  Same<z.output<typeof depositSnapshot>, DepositSnapshot>,
  Same<z.output<typeof payoutView>, PayoutView>,
  Same<z.input<typeof payoutQuoteBody>, PayoutRequest>,
] = [true, true, true, true, true, true, true, true, true];
void checked;

/** One x402 payment requirement (`@x402/core`'s `PaymentRequirements`, version 2). */
export const x402Requirements = z.object({
  scheme: z.string(),
  network: z.string(),
  asset: z.string(),
  amount: z.string().check(z.regex(/^\d+$/)),
  payTo: z.string(),
  maxTimeoutSeconds: z.int(),
  extra: z.record(z.string(), z.unknown()),
});

/**
 * The body of `POST /v1/checkouts/:id/x402`'s 402 (and, base64, its `PAYMENT-REQUIRED`
 * header): x402 version 2's `PaymentRequired`. `error` is the reason string in the header; in
 * the body of a refused payment it is `{code: "x402_payment_refused", message, reason}`.
 */
export const x402PaymentRequired = z.object({
  x402Version: z.int(),
  error: z.optional(
    z.union([z.string(), z.object({ code: z.string(), message: z.string(), reason: z.string() })]),
  ),
  resource: z.object({
    url: z.string(),
    description: z.optional(z.string()),
    mimeType: z.optional(z.string()),
    serviceName: z.optional(z.string()),
  }),
  accepts: z.array(x402Requirements),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});

/** An error that also carries the checkout's snapshot (`x402`: paid, refunded, in flight). */
export const errorWithSnapshot = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  data: z.optional(checkoutSnapshot),
});
