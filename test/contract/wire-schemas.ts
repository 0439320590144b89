/**
 * @module wire-schemas
 * The payment service's wire format, written from its published TypeScript SDK
 * (`cryptonly-net/cryptonly-typescript-sdk`, newest stored 1.5.0 and 1.4.0, and
 * `cryptonly-lib/sdk` 1.1.1 for the files the newer one does not change): one zod schema per
 * SDK type, each citing the type it follows. Where versions differ the newest wins.
 *
 * Conventions, all from the SDK's types:
 * - a field typed `x?: T` is `.optional()` here: the service omits it (never sends `null`);
 * - a field typed `x: T | null` is `.nullable()`: always present, `null` when unknown;
 * - amounts are JSON numbers (`number` in the SDK), timestamps ISO-8601 strings;
 * - objects are strict: a field the SDK does not declare is a difference from the service.
 *
 * Test code only: the sandbox never imports it (it checks the sandbox from outside), and the
 * worker never imports it (it checks the worker's own schemas, `test/node/wire-contract.test.ts`).
 */
import * as z from "zod";

const amount = z.number();
const isoTime = z.iso.datetime({ offset: true });

// SDK 1.1.1 src/types/status.ts InvoiceStatus
export const invoiceStatus = z.enum([
  "created",
  "processing",
  "paid",
  "partially_paid",
  "overpaid",
  "expired",
  "cancelled",
  "failed",
  "suspended",
]);
// SDK 1.1.1 src/types/status.ts DepositStatus
export const depositStatus = z.enum([
  "created",
  "processing",
  "completed",
  "suspended",
  "failed",
  "expired",
  "cancelled",
]);
// SDK 1.1.1 src/types/status.ts WithdrawalStatus
export const withdrawalStatus = z.enum([
  "created",
  "processing",
  "completed",
  "failed",
  "cancelled",
]);
// SDK 1.1.1 src/types/initiation.ts InitiationSource
const initiationSource = z.enum(["api", "admin_panel"]);

// SDK 1.5.0 src/types/settlement.ts SettlementBreakdown
export const settlementBreakdown = z.strictObject({
  amountPaid: amount,
  amountPaidUsd: amount,
  commissionAmount: amount,
  commissionAmountUsd: amount,
  networkFeeAmount: amount,
  networkFeeAmountUsd: amount,
  networkFeeCurrencyCode: z.string(),
  depositNetworkFeeAmount: amount,
  depositNetworkFeeAmountUsd: amount,
  netAmount: amount,
  netAmountUsd: amount,
  txHash: z.string().optional(),
  completedAt: isoTime,
});

// SDK 1.4.0 src/types/invoice.ts InvoiceItem
const invoiceItem = z.strictObject({ name: z.string(), quantity: amount, cost: amount });

// SDK 1.4.0 src/types/invoice.ts Invoice (= InvoiceCreateData: paymentPageUrl is already required)
export const invoice = z.strictObject({
  id: z.string(),
  accountId: z.string(),
  orderId: z.string().optional(),
  amount,
  fiatCurrencyCode: z.string(),
  items: z.array(invoiceItem),
  status: invoiceStatus,
  cryptoCurrencyCode: z.string().optional(),
  cryptoAmountExpected: amount.optional(),
  cryptoAmountReceived: amount.optional(),
  address: z.string().optional(),
  txHash: z.string().optional(),
  settlement: settlementBreakdown.optional(),
  description: z.string().optional(),
  number: z.string().optional(),
  webhookUrl: z.string().optional(),
  returnUrl: z.string().optional(),
  successUrl: z.string().optional(),
  failedUrl: z.string().optional(),
  expiresAt: isoTime,
  createdAt: isoTime,
  paidAt: isoTime.optional(),
  customerId: z.string().optional(),
  customPayload: z.string().optional(),
  paymentPageUrl: z.string(),
  source: initiationSource.optional(),
});

// SDK 1.5.0 src/types/currencies.ts MerchantDepositNetworkFee
const depositNetworkFee = z.strictObject({ amount, quotedAt: isoTime });

// SDK 1.5.0 src/types/currencies.ts MerchantCurrency. `network` is the SDK's SupportedNetwork
// union, which grows (1.4.0 added Base): any name is accepted, so a new network is no error.
export const merchantCurrency = z.strictObject({
  code: z.string(),
  name: z.string(),
  network: z.string(),
  tokenType: z.enum(["erc20", "trc20", "bep20"]).optional(),
  decimalPlaces: z.number().int().nonnegative(),
  minDepositAmount: amount,
  depositNetworkFee: depositNetworkFee.nullable(),
  minWithdrawalAmount: amount,
  depositCommission: amount,
  contractAddress: z.string().nullable(),
  imageUrl: z.string().nullable(),
  addressMask: z.string().nullable(),
});

// SDK 1.5.0 src/types/currencies.ts MerchantFiatCurrency
export const merchantFiatCurrency = z.strictObject({
  code: z.string(),
  name: z.string(),
  decimalPlaces: z.number().int().nonnegative(),
  minInvoiceAmount: amount,
});

// SDK 1.1.1 src/types/accounts.ts TenantAccount
export const tenantAccount = z.strictObject({
  id: z.string(),
  name: z.string(),
  createdAt: isoTime,
});

// SDK 1.1.1 src/types/deposit.ts DepositCreateData
export const depositCreateData = z.strictObject({
  id: z.string(),
  minimumAmount: amount,
  address: z.string(),
  createdAt: isoTime,
  expiresAt: isoTime,
  qrCode: z.string(),
});

// SDK 1.1.1 src/types/deposit.ts Deposit
export const deposit = z.strictObject({
  id: z.string(),
  accountId: z.string(),
  orderId: z.string().optional(),
  customerId: z.string().optional(),
  status: depositStatus,
  cryptoCurrencyCode: z.string(),
  address: z.string().optional(),
  expiresAt: isoTime,
  createdAt: isoTime,
  updatedAt: isoTime,
  settlement: settlementBreakdown.optional(),
});

// SDK 1.4.0 src/types/withdrawal.ts Withdrawal
export const withdrawal = z.strictObject({
  id: z.string(),
  orderId: z.string(),
  accountId: z.string(),
  cryptoCurrencyCode: z.string(),
  address: z.string(),
  amount,
  transactionHash: z.string().nullable().optional(),
  status: withdrawalStatus,
  convertId: z.string().nullable().optional(),
  feeAmount: amount,
  feeAmountUsd: amount,
  amountUsd: amount,
  debitedAmount: amount,
  customData: z.record(z.string(), z.unknown()).optional(),
  webhookUrl: z.string().optional(),
  source: initiationSource.optional(),
  createdAt: isoTime,
  updatedAt: isoTime,
  quoteId: z.string().nullable(),
  transferId: z.string().nullable(),
});

// SDK 1.4.0 src/types/withdrawal.ts WithdrawalQuoteFeeBreakdown
const quoteFee = z.strictObject({
  feeNative: amount,
  feeCurrency: z.string(),
  feeInCryptoCurrencyCode: amount,
  feeUsd: amount,
});

// SDK 1.4.0 src/types/withdrawal.ts WithdrawalAutoConvertPreview (1.2.0: fromAssetCode/toAssetCode)
const autoConvertPreview = z.strictObject({
  fromAssetCode: z.string(),
  toAssetCode: z.string(),
  fromAmount: amount,
  toAmount: amount,
});

// SDK 1.4.0 src/types/withdrawal.ts WithdrawalQuote
export const withdrawalQuote = z.strictObject({
  quoteId: z.string(),
  orderId: z.string(),
  cryptoCurrencyCode: z.string(),
  address: z.string(),
  amount,
  autoConvert: autoConvertPreview.nullable(),
  totalDeduction: amount,
  fee: quoteFee,
  expiresAt: isoTime,
});

// SDK 1.1.1 src/types/pagination.ts PaginatedList<T>
export function paginatedList<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    limit: z.number().int().positive(),
    hasMore: z.boolean(),
  });
}

/** `{ data: T }`: the SDK's `…DataResponse` / `…ListResponse` wrappers. */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ data });
}

// SDK 1.1.1 src/errors/cryptonly-api-error.ts: the error body `{ code, message, extension? }`
export const errorBody = z.strictObject({
  code: z.string().regex(/^exceptions\.[A-Za-z0-9]+\.[A-Za-z0-9]+$/),
  message: z.string(),
  extension: z.record(z.string(), z.unknown()).optional(),
});

// SDK 1.5.0 src/webhook/types.ts InvoiceStatusChangedWebhookData
export const invoiceWebhookData = invoice.extend({ previousStatus: invoiceStatus.optional() });

// SDK 1.5.0 src/webhook/types.ts DepositStatusChangedWebhookData (addressProvisionId: deprecated,
// "no longer sent", still typed)
export const depositWebhookData = deposit.extend({
  previousStatus: depositStatus.optional(),
  addressProvisionId: z.string().optional(),
  depositTransactionHash: z.string().nullable().optional(),
  actuallyReceivedAmount: amount.nullable().optional(),
  actuallyReceivedAmountUsd: amount.nullable().optional(),
});

// SDK 1.5.0 src/webhook/types.ts WithdrawalStatusChangedWebhookData: the snapshot of GET
// withdrawal, with `convertId` always present (nullable) and `previousStatus`
export const withdrawalWebhookData = withdrawal.extend({
  convertId: z.string().nullable(),
  previousStatus: withdrawalStatus.optional(),
});

// SDK 1.5.0 src/webhook/types.ts CryptonlyOutboundWebhookBody: `event`, `data`, `timestamp`
export const webhookBody = z.discriminatedUnion("event", [
  z.strictObject({
    event: z.literal("invoice.statusChanged"),
    data: invoiceWebhookData,
    timestamp: isoTime,
  }),
  z.strictObject({
    event: z.literal("deposit.statusChanged"),
    data: depositWebhookData,
    timestamp: isoTime,
  }),
  z.strictObject({
    event: z.literal("withdrawal.statusChanged"),
    data: withdrawalWebhookData,
    timestamp: isoTime,
  }),
]);

/**
 * Every error code the service publishes: SDK 1.5.0 `src/errors/merchant-api-codes.ts`, plus
 * `exceptions.rateLimit.exceeded`, which its `CryptonlyApiError` documents (with
 * `extension.msBeforeNext`). The 1.1.1 `converting` codes are left out: 1.2.0 removed them.
 */
export const PUBLISHED_ERROR_CODES: ReadonlySet<string> = new Set([
  "exceptions.auth.invalidApiKey",
  "exceptions.invoice.fiatCurrencyNotFound",
  "exceptions.invoice.amountOrItemsRequired",
  "exceptions.invoice.amountBelowMinimum",
  "exceptions.invoice.amountInvalidDecimalPlaces",
  "exceptions.invoice.orderIdAlreadyExists",
  "exceptions.invoice.tenantNotFound",
  "exceptions.invoice.customerBlocked",
  "exceptions.invoice.notFound",
  "exceptions.invoice.notFoundByOrderId",
  "exceptions.invoice.notAvailableForPreview",
  "exceptions.invoice.currencyNotFound",
  "exceptions.invoice.notInCreatedStatus",
  "exceptions.invoice.expired",
  "exceptions.invoice.depositConflict",
  "exceptions.invoice.depositAlreadyActive",
  "exceptions.invoice.noActiveDeposit",
  "exceptions.invoice.cannotCancel",
  "exceptions.depositFee.quoteUnavailable",
  "exceptions.addressProvision.temporarilyDisabled",
  "exceptions.withdrawal.amountMustBePositive",
  "exceptions.withdrawal.tenantAccountNotFound",
  "exceptions.withdrawal.currencyNotFound",
  "exceptions.withdrawal.invalidAddress",
  "exceptions.withdrawal.amountBelowMinimum",
  "exceptions.withdrawal.amountInvalidDecimalPlaces",
  "exceptions.withdrawal.quoteKindMismatch",
  "exceptions.withdrawal.tenantAccountMismatch",
  "exceptions.withdrawal.tenantNotFound",
  "exceptions.withdrawal.quoteDecisionMissing",
  "exceptions.withdrawal.orderIdAlreadyExists",
  "exceptions.withdrawal.lockedBalanceMissing",
  "exceptions.withdrawal.insufficientBalance",
  "exceptions.withdrawal.malformedQuote",
  "exceptions.withdrawal.eitherWithdrawalIdOrOrderIdMustBeProvided",
  "exceptions.withdrawal.notFound",
  "exceptions.rateLimit.exceeded",
]);

/**
 * The schema of a successful answer to `method path` (the SDK's resource clients name these
 * routes), or undefined for a route the SDK does not describe. `POST /invoice/cancel` answers
 * 204 with no body (null here).
 */
export function answerSchema(method: string, path: string): z.ZodType | null | undefined {
  return SUCCESS_ANSWERS[`${method} ${path}`];
}

const SUCCESS_ANSWERS: Record<string, z.ZodType | null> = {
  "GET /currencies": dataEnvelope(z.array(merchantCurrency)),
  "GET /currencies/fiat": dataEnvelope(z.array(merchantFiatCurrency)),
  "GET /accounts": dataEnvelope(z.array(tenantAccount)),
  "POST /invoice": dataEnvelope(invoice),
  "GET /invoice": dataEnvelope(invoice),
  "GET /invoice/list": paginatedList(invoice),
  "POST /invoice/cancel": null,
  // The sandbox's currency-lock extension answers the invoice as GET /invoice does.
  "POST /x-sandbox/invoice/lock-currency": dataEnvelope(invoice),
  "POST /deposit": dataEnvelope(depositCreateData),
  "GET /deposit": dataEnvelope(deposit),
  "GET /deposit/list": paginatedList(deposit),
  "POST /withdrawal/quote": dataEnvelope(withdrawalQuote),
  "POST /withdrawal/commit": dataEnvelope(withdrawal),
  "GET /withdrawal": dataEnvelope(withdrawal),
  "GET /withdrawal/list": paginatedList(withdrawal),
};
