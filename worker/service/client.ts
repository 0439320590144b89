/**
 * @module
 * The typed client of the payment service: one method per endpoint of the wire contract
 * (the service's API as it answers on the wire), returning normalised objects (`types.ts`).
 *
 * Wire facts kept here: `x-tenant-api-key` header (in `transport.ts`); `accountId` in the body
 * of the creates and as a query parameter of every read of one object; success envelope
 * `{data}`. Retry classes are in `retry-policy.ts`.
 *
 * *Assumed* (not in the public sources): `GET /withdrawal?accountId&id|orderId` reads one
 * withdrawal, by analogy with `/invoice` and `/deposit`.
 *
 * Recovery after an uncertain create: if an earlier attempt of `createInvoice`/`createDeposit`
 * timed out (or failed with a network error or 5xx) and a retry is answered
 * `…orderIdAlreadyExists` / 409, the first attempt did reach the service. The object is then
 * read by orderId and returned only if it matches the request (invoice: amount and fiat
 * currency; deposit: crypto currency); otherwise the conflict is thrown as is.
 */
import * as z from "zod/mini";
import { cmp } from "../lib/money/decimal.ts";
import type { Schema } from "../lib/schema.ts";
import { networkLabel } from "../lib/wallet/networks.ts";
import { UpstreamError } from "./errors.ts";
import {
  type CommitWithdrawalInput,
  type CreateDepositInput,
  type CreateInvoiceInput,
  commitBody,
  depositBody,
  invoiceBody,
  type ListInput,
  type ListInvoicesInput,
  type ObjectRef,
  type QuoteWithdrawalInput,
  quoteBody,
  refQuery,
} from "./inputs.ts";
import {
  accountSchema,
  cryptoCurrencySchema,
  depositPageSchema,
  depositSchema,
  envelope,
  fiatCurrencySchema,
  invoicePageSchema,
  invoiceSchema,
  withdrawalPageSchema,
  withdrawalQuoteSchema,
  withdrawalSchema,
} from "./schemas.ts";
import { createTransport, type Transport, type UpstreamClientOptions } from "./transport.ts";
import type {
  Account,
  CreatedDeposit,
  Deposit,
  FiatCurrency,
  Invoice,
  InvoicePage,
  Page,
  UpstreamCryptoCurrency,
  Withdrawal,
  WithdrawalQuote,
} from "./types.ts";

export type * from "./inputs.ts";
export type { UpstreamClientOptions } from "./transport.ts";
export type * from "./types.ts";

/** The client returned by `createUpstreamClient`. */
export interface UpstreamClient {
  /** The service's base URL (not secret; adapters use it to know what the service offers). */
  readonly baseUrl: string;
  /** The account every call acts on. */
  readonly accountId: string;
  /** Low-level sender, for adapters of non-public operations (see `currency-lock.ts`) only. */
  readonly send: Transport;
  listCurrencies(network?: string): Promise<UpstreamCryptoCurrency[]>;
  listFiatCurrencies(): Promise<FiatCurrency[]>;
  createInvoice(input: CreateInvoiceInput): Promise<Invoice>;
  getInvoice(ref: ObjectRef): Promise<Invoice>;
  listInvoices(input?: ListInvoicesInput): Promise<InvoicePage>;
  cancelInvoice(ref: ObjectRef): Promise<void>;
  createDeposit(input: CreateDepositInput): Promise<CreatedDeposit>;
  getDeposit(ref: ObjectRef): Promise<Deposit>;
  listDeposits(input?: ListInput): Promise<Page<Deposit>>;
  quoteWithdrawal(input: QuoteWithdrawalInput): Promise<WithdrawalQuote>;
  commitWithdrawal(input: CommitWithdrawalInput): Promise<Withdrawal>;
  getWithdrawal(ref: ObjectRef): Promise<Withdrawal>;
  listWithdrawals(input?: ListInput): Promise<Page<Withdrawal>>;
  listAccounts(): Promise<Account[]>;
}

const currencyList = envelope(z.array(cryptoCurrencySchema));
const fiatList = envelope(z.array(fiatCurrencySchema));
const oneInvoice = envelope(invoiceSchema);
const oneDeposit = envelope(depositSchema);
const oneQuote = envelope(withdrawalQuoteSchema);
const oneWithdrawal = envelope(withdrawalSchema);
const accountList = envelope(z.array(accountSchema));

/**
 * A client of the payment service. Holds the API key in a closure only: the returned object
 * has no property that reveals it (safe to log or serialise).
 *
 * @example
 * const client = createUpstreamClient({ baseUrl, apiKey: env.API_KEY, accountId: env.ACCOUNT_ID });
 * const invoice = await client.createInvoice({ orderId: "cc-1001", fiatCurrencyCode: "USD", amount: "49.90" });
 */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  // Every method is async so that bad input rejects the returned promise (never throws).
  const send = createTransport(options);
  const { accountId } = options;

  const getInvoice = async (ref: ObjectRef) =>
    send({
      method: "GET",
      path: "/invoice",
      query: refQuery(accountId, ref),
      retry: "safe",
      schema: oneInvoice,
    });
  const getDeposit = async (ref: ObjectRef) =>
    send({
      method: "GET",
      path: "/deposit",
      query: refQuery(accountId, ref),
      retry: "safe",
      schema: oneDeposit,
    });

  return {
    baseUrl: options.baseUrl,
    accountId,
    send,
    listCurrencies: async (network) => {
      const list = await send({
        method: "GET",
        path: "/currencies",
        query: { network },
        retry: "safe",
        schema: currencyList,
      });
      // The one display name per network travels with each entry (and with a locked attempt).
      return list.map((c) => ({ ...c, networkName: networkLabel(c.network) }));
    },
    listFiatCurrencies: async () =>
      send({ method: "GET", path: "/currencies/fiat", retry: "safe", schema: fiatList }),

    createInvoice: async (input) =>
      createOnce(
        send,
        { path: "/invoice", body: invoiceBody(accountId, input), schema: oneInvoice },
        () => getInvoice({ orderId: input.orderId }),
        (existing) =>
          cmp(existing.amount, input.amount) === 0 &&
          existing.fiatCurrencyCode === input.fiatCurrencyCode,
      ),
    getInvoice,
    listInvoices: async (input = {}) =>
      send({ ...listQuery("/invoice/list", accountId, input), schema: invoicePageSchema }),
    cancelInvoice: async (ref) =>
      send<void>({
        method: "POST",
        path: "/invoice/cancel",
        query: refQuery(accountId, ref),
        retry: "never",
      }),

    async createDeposit(input) {
      const deposit = await createOnce(
        send,
        { path: "/deposit", body: depositBody(accountId, input), schema: oneDeposit },
        () => getDeposit({ orderId: input.orderId }),
        (existing) => existing.cryptoCurrencyCode === input.cryptoCurrencyCode,
      );
      // The create answer omits the currency, and a repeated orderId answers with the ORIGINAL
      // deposit whatever currency was asked: never label the address with the requested
      // currency; read the deposit back and compare.
      const stored =
        deposit.cryptoCurrencyCode && deposit.orderId
          ? deposit
          : await getDeposit({ id: deposit.id });
      if (stored.cryptoCurrencyCode !== input.cryptoCurrencyCode) {
        throw new UpstreamError(
          "http",
          `orderId ${input.orderId} already names a ${stored.cryptoCurrencyCode ?? "different"} deposit, not ${input.cryptoCurrencyCode}`,
          { status: 409, code: "exceptions.deposit.orderIdAlreadyExists" },
        );
      }
      // The address to pay: the create answer always has one; a read-back may not.
      const address = deposit.address ?? stored.address;
      if (address === null) {
        throw new UpstreamError("invalid_response", `deposit ${deposit.id} has no address`);
      }
      return {
        ...deposit,
        address,
        orderId: stored.orderId ?? input.orderId,
        cryptoCurrencyCode: stored.cryptoCurrencyCode,
      };
    },
    getDeposit,
    listDeposits: async (input = {}) =>
      send({ ...listQuery("/deposit/list", accountId, input), schema: depositPageSchema }),

    quoteWithdrawal: async (input) =>
      send({
        method: "POST",
        path: "/withdrawal/quote",
        body: quoteBody(accountId, input),
        retry: "safe",
        schema: oneQuote,
      }),
    commitWithdrawal: async (input) =>
      send({
        method: "POST",
        path: "/withdrawal/commit",
        body: commitBody(input),
        retry: "commit",
        schema: oneWithdrawal,
      }),
    getWithdrawal: async (ref) =>
      send({
        method: "GET",
        path: "/withdrawal",
        query: refQuery(accountId, ref),
        retry: "safe",
        schema: oneWithdrawal,
      }),
    listWithdrawals: async (input = {}) =>
      send({ ...listQuery("/withdrawal/list", accountId, input), schema: withdrawalPageSchema }),
    listAccounts: async () =>
      send({ method: "GET", path: "/accounts", retry: "safe", schema: accountList }),
  };
}

/** One page request of a list endpoint (`accountId`, `status`, `page`, `limit`). */
function listQuery(path: string, accountId: string, input: ListInput) {
  const { status, page, limit } = input;
  return {
    method: "GET" as const,
    path,
    query: { accountId, status, page, limit },
    retry: "safe" as const,
  };
}

/**
 * A create (`POST /invoice`, `POST /deposit`) sent with safe retries, made at most once per
 * orderId: when an attempt may have reached the service (`trace.uncertain`) and a retry is
 * refused because the orderId already exists, that object is most likely this call's own first
 * attempt, so it is read back by orderId and adopted when `same` (the terms asked); otherwise
 * the refusal stands (the orderId is someone else's, or was used with other terms).
 *
 * @example
 * await createOnce(send, { path: "/deposit", body, schema: oneDeposit },
 *   () => getDeposit({ orderId }), (d) => d.cryptoCurrencyCode === code);
 */
async function createOnce<T>(
  send: Transport,
  request: { path: string; body: Record<string, unknown>; schema: Schema<T> },
  readBack: () => Promise<T>,
  same: (existing: T) => boolean,
): Promise<T> {
  const trace = { uncertain: false };
  try {
    return await send({ method: "POST", ...request, retry: "safe", trace });
  } catch (error) {
    if (!(trace.uncertain && isOrderIdConflict(error))) throw error;
    const existing = await readBack();
    if (same(existing)) return existing;
    throw error;
  }
}

/** The service's answer to a create whose orderId already names an object. */
function isOrderIdConflict(error: unknown): error is UpstreamError {
  return (
    error instanceof UpstreamError &&
    error.kind === "http" &&
    (error.status === 409 || (error.code ?? "").endsWith(".orderIdAlreadyExists"))
  );
}
