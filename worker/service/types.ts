/**
 * @module
 * Normalised shapes of the service's objects, as the upstream client returns them.
 *
 * Invariants: every amount is a canonical decimal string (see `worker/lib/money`), never a number;
 * every field the service may omit is `null` here, never `undefined`; nothing here carries
 * the API key. Catalogue entries reuse the worker↔widget contract types.
 */
import type {
  CryptoCurrency,
  DepositStatus,
  FiatCurrency,
  InvoiceStatus,
  WithdrawalStatus,
} from "../../packages/contract/src/http-api.ts";

export type { CryptoCurrency, FiatCurrency };

/** A crypto currency entry as the catalogue keeps it: the deposit network fee always present. */
export interface UpstreamCryptoCurrency extends CryptoCurrency {
  depositNetworkFee: { amount: string; quotedAt: string | null } | null;
}

/** A crypto currency entry as the service sends it (the worker adds `networkName`). */
export type WireCryptoCurrency = Omit<UpstreamCryptoCurrency, "networkName">;

/** What the service credited for a settled invoice or deposit. */
export interface Settlement {
  amountPaid: string;
  commissionAmount: string;
  networkFeeAmount: string | null;
  networkFeeCurrencyCode: string | null;
  depositNetworkFeeAmount: string | null;
  /** `amountPaid − depositNetworkFeeAmount − commissionAmount`, as the service computed it. */
  netAmount: string;
  amountPaidUsd: string | null;
  commissionAmountUsd: string | null;
  networkFeeAmountUsd: string | null;
  depositNetworkFeeAmountUsd: string | null;
  netAmountUsd: string | null;
  txHash: string | null;
  completedAt: string | null;
}

/** One line of an invoice created with `items`. */
export interface InvoiceItem {
  name: string;
  quantity: string;
  cost: string;
}

/** An invoice. The five crypto fields stay null until the payer locks a currency. */
export interface Invoice {
  id: string;
  accountId: string | null;
  orderId: string | null;
  amount: string;
  fiatCurrencyCode: string;
  items: InvoiceItem[] | null;
  status: InvoiceStatus;
  cryptoCurrencyCode: string | null;
  cryptoAmountExpected: string | null;
  cryptoAmountReceived: string | null;
  address: string | null;
  txHash: string | null;
  settlement: Settlement | null;
  expiresAt: string | null;
  createdAt: string;
  paidAt: string | null;
  paymentPageUrl: string;
  customPayload: string | null;
  description: string | null;
  number: string | null;
}

/** An invoice right after the sandbox's currency lock: the payment fields are set. */
export interface LockedInvoice extends Invoice {
  cryptoCurrencyCode: string;
  cryptoAmountExpected: string;
  address: string;
}

/** A page of a list endpoint (`GET /invoice/list`, `/deposit/list`, `/withdrawal/list`). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  hasMore: boolean;
}

/** A page of `GET /invoice/list`. */
export type InvoicePage = Page<Invoice>;

/**
 * A standalone deposit. `POST /deposit` returns only id, minimumAmount, address, dates and
 * qrCode; `status`/`settlement` are null until read with `GET /deposit`, which in turn may omit
 * `address` (SDK `Deposit.address?`) and carries no `minimumAmount` or `qrCode`.
 */
export interface Deposit {
  id: string;
  orderId: string | null;
  cryptoCurrencyCode: string | null;
  status: DepositStatus | null;
  minimumAmount: string | null;
  address: string | null;
  createdAt: string;
  expiresAt: string | null;
  /** PNG data URI. */
  qrCode: string | null;
  settlement: Settlement | null;
}

/** A deposit as `createDeposit` returns it: always with the address to pay. */
export interface CreatedDeposit extends Deposit {
  address: string;
}

/** A withdrawal quote: reserves nothing; commit it before `expiresAt` (about 60 s). */
export interface WithdrawalQuote {
  quoteId: string;
  orderId: string;
  cryptoCurrencyCode: string;
  address: string;
  amount: string;
  autoConvert: {
    fromAssetCode: string;
    toAssetCode: string;
    fromAmount: string;
    toAmount: string;
  } | null;
  /** Amount plus network fee: what a commit debits. */
  totalDeduction: string;
  fee: {
    /** Real on-chain fee in the network's base currency (`feeCurrency`). */
    feeNative: string;
    feeCurrency: string;
    /** The same fee expressed in the withdrawal currency. */
    feeInCryptoCurrencyCode: string;
    feeUsd: string | null;
  };
  expiresAt: string;
}

/** A committed withdrawal. */
export interface Withdrawal {
  id: string;
  orderId: string | null;
  accountId: string | null;
  cryptoCurrencyCode: string;
  address: string;
  amount: string;
  status: WithdrawalStatus;
  transactionHash: string | null;
  feeAmount: string | null;
  debitedAmount: string | null;
  createdAt: string;
  updatedAt: string | null;
  quoteId: string | null;
}

/** An account of the tenant. */
export interface Account {
  id: string;
  name: string | null;
  createdAt: string | null;
}
