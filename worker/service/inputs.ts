/**
 * @module
 * Inputs of the client's write operations and their request bodies.
 *
 * Invariants: inputs are checked before anything is sent (a bad amount is a programmer error,
 * thrown as `TypeError`, never a request); amounts go out as exact JSON numerals
 * (`exactJsonNumber`, canonical form: `"49.90"` is sent as `49.9`); optional fields that are
 * `undefined` are left out of the body rather than sent as null.
 */
import { isDecimalString } from "../lib/money/decimal.ts";
import { exactJsonNumber } from "../lib/money/exact-json.ts";

/** Selects one object by the service's id or by the merchant's orderId. */
export type ObjectRef = { id: string; orderId?: never } | { orderId: string; id?: never };

/** `POST /invoice`. `orderId` is required here: it is what makes retries safe. */
export interface CreateInvoiceInput {
  orderId: string;
  fiatCurrencyCode: string;
  /** Fiat amount as a plain decimal string, e.g. `"49.90"`. */
  amount: string;
  description?: string;
  /** Reference shown on the hosted page. */
  number?: string;
  webhookUrl?: string;
  returnUrl?: string;
  successUrl?: string;
  failedUrl?: string;
  expiresInMinutes?: number;
  customerId?: string;
  /** Opaque string, echoed back on the invoice and its webhooks. */
  customPayload?: string;
}

/** `GET /invoice/list`. */
export interface ListInput {
  status?: string;
  page?: number;
  limit?: number;
}

/** `GET /invoice/list` (kept for its callers). */
export type ListInvoicesInput = ListInput;

/** `POST /deposit`. */
export interface CreateDepositInput {
  orderId: string;
  cryptoCurrencyCode: string;
  customerId?: string;
  webhookUrl?: string;
}

/** `POST /withdrawal/quote`. */
export interface QuoteWithdrawalInput {
  orderId: string;
  cryptoCurrencyCode: string;
  address: string;
  /** Amount in the crypto currency, plain decimal string. */
  amount: string;
  allowAutoConvert?: boolean;
}

/** `POST /withdrawal/commit`. */
export interface CommitWithdrawalInput {
  quoteId: string;
  customData?: Record<string, unknown>;
  webhookUrl?: string;
}

/**
 * Body of `POST /invoice`.
 * @example invoiceBody("acc-1", { orderId: "cc-1", fiatCurrencyCode: "USD", amount: "49.90" });
 */
export function invoiceBody(accountId: string, input: CreateInvoiceInput): Record<string, unknown> {
  requireText(input.orderId, "orderId");
  requireText(input.fiatCurrencyCode, "fiatCurrencyCode");
  requireAmount(input.amount, "amount");
  if (
    input.expiresInMinutes !== undefined &&
    (!Number.isSafeInteger(input.expiresInMinutes) || input.expiresInMinutes <= 0)
  ) {
    throw new TypeError("expiresInMinutes must be a positive integer");
  }
  return compact({
    accountId,
    fiatCurrencyCode: input.fiatCurrencyCode,
    orderId: input.orderId,
    amount: exactJsonNumber(input.amount),
    description: input.description,
    number: input.number,
    webhookUrl: input.webhookUrl,
    returnUrl: input.returnUrl,
    successUrl: input.successUrl,
    failedUrl: input.failedUrl,
    expiresInMinutes: input.expiresInMinutes,
    customerId: input.customerId,
    customPayload: input.customPayload,
  });
}

/**
 * Body of `POST /deposit`.
 * @example depositBody("acc-1", { orderId: "top-1", cryptoCurrencyCode: "USDT_TRC20" });
 */
export function depositBody(accountId: string, input: CreateDepositInput): Record<string, unknown> {
  requireText(input.orderId, "orderId");
  requireText(input.cryptoCurrencyCode, "cryptoCurrencyCode");
  return compact({
    accountId,
    cryptoCurrencyCode: input.cryptoCurrencyCode,
    orderId: input.orderId,
    customerId: input.customerId,
    webhookUrl: input.webhookUrl,
  });
}

/**
 * Body of `POST /withdrawal/quote`.
 * @example quoteBody("acc-1", { orderId: "po-1", cryptoCurrencyCode: "BTC", address: "bc1…", amount: "0.01" });
 */
export function quoteBody(accountId: string, input: QuoteWithdrawalInput): Record<string, unknown> {
  requireText(input.orderId, "orderId");
  requireText(input.cryptoCurrencyCode, "cryptoCurrencyCode");
  requireText(input.address, "address");
  requireAmount(input.amount, "amount");
  return compact({
    accountId,
    cryptoCurrencyCode: input.cryptoCurrencyCode,
    address: input.address,
    amount: exactJsonNumber(input.amount),
    orderId: input.orderId,
    allowAutoConvert: input.allowAutoConvert,
  });
}

/**
 * Body of `POST /withdrawal/commit` (no accountId: the quote already names the account).
 * @example commitBody({ quoteId: "q-1" }); // { quoteId: "q-1" }
 */
export function commitBody(input: CommitWithdrawalInput): Record<string, unknown> {
  requireText(input.quoteId, "quoteId");
  return compact({
    quoteId: input.quoteId,
    customData: input.customData,
    webhookUrl: input.webhookUrl,
  });
}

/**
 * Query selecting one object: `{accountId, id}` or `{accountId, orderId}`.
 * @example refQuery("acc-1", { orderId: "cc-1" }); // { accountId: "acc-1", orderId: "cc-1" }
 */
export function refQuery(accountId: string, ref: ObjectRef): Record<string, string> {
  if (typeof ref.id === "string" && ref.id) return { accountId, id: ref.id };
  if (typeof ref.orderId === "string" && ref.orderId) return { accountId, orderId: ref.orderId };
  throw new TypeError("an id or an orderId is required");
}

function requireText(value: unknown, field: string): void {
  if (typeof value !== "string" || value.length === 0) {
    throw new TypeError(`${field} must be a non-empty string`);
  }
}

function requireAmount(value: unknown, field: string): void {
  if (!isDecimalString(value)) {
    throw new TypeError(`${field} must be a plain decimal string such as "49.90"`);
  }
}

function compact(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}
