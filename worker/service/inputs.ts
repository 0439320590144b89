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
 * What one operation's body sends: these fields of its input, in this order, with the service's
 * `accountId` first when it takes one. `required` fields must be non-empty text and `amounts`
 * plain decimal strings (both checked before anything is built, in that order), sent as exact
 * JSON numerals; a field left `undefined` is left out.
 */
interface BodyRule<T> {
  fields: readonly (keyof T & string)[];
  required: readonly (keyof T & string)[];
  amounts?: readonly (keyof T & string)[];
}

/**
 * The body `rule` makes of `input`: the one place a request body is checked and built.
 *
 * @example
 * bodyOf(DEPOSIT_BODY, { orderId: "top-1", cryptoCurrencyCode: "BTC" }, "acc-1");
 * // { accountId: "acc-1", cryptoCurrencyCode: "BTC", orderId: "top-1" }
 */
function bodyOf<T extends object>(
  rule: BodyRule<T>,
  input: T,
  accountId?: string,
): Record<string, unknown> {
  for (const field of rule.required) requireText(input[field], field);
  for (const field of rule.amounts ?? []) requireAmount(input[field], field);
  const body: Record<string, unknown> = accountId === undefined ? {} : { accountId };
  for (const field of rule.fields) {
    const value = input[field];
    if (value === undefined) continue;
    body[field] = rule.amounts?.includes(field) ? exactJsonNumber(value as string) : value;
  }
  return body;
}

const INVOICE_BODY: BodyRule<CreateInvoiceInput> = {
  fields: [
    "fiatCurrencyCode",
    "orderId",
    "amount",
    "description",
    "number",
    "webhookUrl",
    "returnUrl",
    "successUrl",
    "failedUrl",
    "expiresInMinutes",
    "customerId",
    "customPayload",
  ],
  required: ["orderId", "fiatCurrencyCode"],
  amounts: ["amount"],
};

const DEPOSIT_BODY: BodyRule<CreateDepositInput> = {
  fields: ["cryptoCurrencyCode", "orderId", "customerId", "webhookUrl"],
  required: ["orderId", "cryptoCurrencyCode"],
};

const QUOTE_BODY: BodyRule<QuoteWithdrawalInput> = {
  fields: ["cryptoCurrencyCode", "address", "amount", "orderId", "allowAutoConvert"],
  required: ["orderId", "cryptoCurrencyCode", "address"],
  amounts: ["amount"],
};

const COMMIT_BODY: BodyRule<CommitWithdrawalInput> = {
  fields: ["quoteId", "customData", "webhookUrl"],
  required: ["quoteId"],
};

/**
 * Body of `POST /invoice`.
 * @example invoiceBody("acc-1", { orderId: "cc-1", fiatCurrencyCode: "USD", amount: "49.90" });
 */
export function invoiceBody(accountId: string, input: CreateInvoiceInput): Record<string, unknown> {
  const body = bodyOf(INVOICE_BODY, input, accountId);
  const minutes = input.expiresInMinutes;
  if (minutes !== undefined && (!Number.isSafeInteger(minutes) || minutes <= 0)) {
    throw new TypeError("expiresInMinutes must be a positive integer");
  }
  return body;
}

/**
 * Body of `POST /deposit`.
 * @example depositBody("acc-1", { orderId: "top-1", cryptoCurrencyCode: "USDT_TRC20" });
 */
export function depositBody(accountId: string, input: CreateDepositInput): Record<string, unknown> {
  return bodyOf(DEPOSIT_BODY, input, accountId);
}

/**
 * Body of `POST /withdrawal/quote`.
 * @example quoteBody("acc-1", { orderId: "po-1", cryptoCurrencyCode: "BTC", address: "bc1…", amount: "0.01" });
 */
export function quoteBody(accountId: string, input: QuoteWithdrawalInput): Record<string, unknown> {
  return bodyOf(QUOTE_BODY, input, accountId);
}

/**
 * Body of `POST /withdrawal/commit` (no accountId: the quote already names the account).
 * @example commitBody({ quoteId: "q-1" }); // { quoteId: "q-1" }
 */
export function commitBody(input: CommitWithdrawalInput): Record<string, unknown> {
  return bodyOf(COMMIT_BODY, input);
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
