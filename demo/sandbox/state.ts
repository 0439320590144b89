/**
 * @module state
 * The sandbox's options (with defaults) and its whole in-memory state: the record shapes of
 * invoices, deposits, quotes, withdrawals and webhook deliveries, and the maps that index them;
 * the x402 facilitator's records live in `x402-records.ts`.
 * All mutation is synchronous so an idempotency lookup and its insert never straddle an await.
 */
import type { Fault, InboxState, RequestLogEntry } from "./control-records.ts";
import type { Decimal } from "./decimal.ts";
import { createDeliverySender, type DeliverySender } from "./delivery-sender.ts";
import { createScheduler, type Scheduler } from "./scheduler.ts";
import { createX402State, type X402State } from "./x402-records.ts";
import { DEMO_X402_WALLET } from "./x402-wallets.ts";

/** How a sandbox is configured. */
export interface SandboxOptions {
  /** Value every API call must send in `x-tenant-api-key`. */
  apiKey: string;
  /** The one account (UUID) the API key can use. */
  accountId: string;
  /** Webhook bodies are signed with HMAC-SHA256 keyed by this string's UTF-8 bytes. */
  webhookSigningKey: string;
  /** Tenant default webhook destination; null = log deliveries but never send them. */
  webhookUrl: string | null;
  /** Waits before each retry of a failed delivery; attempts = 1 + length. */
  retryDelaysMs: number[];
  /** Clock; tests pass a controllable one. */
  now?: () => Date;
  /** How long a currency lock holds the crypto amount and address. */
  invoiceLockMinutes: number;
  /** How long a withdrawal quote can be committed (the service says about 60 s). */
  quoteLifetimeMs: number;
  /**
   * Offer the SANDBOX EXTENSION `POST /x-sandbox/invoice/lock-currency` (in-page checkouts).
   * false = the public API only: every `/x-sandbox/*` path is then an unknown route, answered
   * exactly as any other unknown route, and the payer picks the currency on the hosted page.
   */
  currencyLock: boolean;
  /**
   * API requests a second per API key (`rate-limit.ts`); over it, 429 with
   * `extension.msBeforeNext`. null = no limit.
   */
  rateLimit: number | null;
  /**
   * The merchant wallets the tenant registered for x402 (EIP-55): the facilitator settles only
   * to one of them (`x402-wallets.ts`).
   */
  x402Wallets: string[];
  /** How long an x402 settlement stays `submitted` before it confirms (or fails), in ms. */
  x402ConfirmMs: number;
}

/**
 * Defaults for any option not given, to `createSandbox` and to the CLI (`env.ts`): the one
 * place they are written. `webhookUrl` is the design's worker webhook address; tests that must
 * not send pass `webhookUrl: null` explicitly.
 */
export const DEFAULT_OPTIONS: SandboxOptions = {
  apiKey: "sk_sandbox_demo",
  accountId: "00000000-0000-4000-8000-000000000001",
  webhookSigningKey: "whsec_sandbox_demo",
  webhookUrl: "http://127.0.0.1:8787/webhooks/payment",
  retryDelaysMs: [1000, 5000, 30000],
  invoiceLockMinutes: 15,
  quoteLifetimeMs: 60_000,
  currencyLock: true,
  rateLimit: null,
  x402Wallets: [DEMO_X402_WALLET],
  x402ConfirmMs: 3000,
};

export type InvoiceStatus =
  | "created"
  | "processing"
  | "suspended"
  | "paid"
  | "overpaid"
  | "partially_paid"
  | "expired"
  | "failed"
  | "cancelled";
export type DepositStatus =
  | "created"
  | "processing"
  | "completed"
  | "suspended"
  | "failed"
  | "expired"
  | "cancelled";
export type WithdrawalStatus = "created" | "processing" | "completed" | "failed" | "cancelled";

/**
 * Settlement of a deposit or a settled invoice: amounts in the paid crypto currency (the
 * network fee in the network's base coin), each with its USD value at the sandbox's rates.
 */
export interface Settlement {
  amountPaid: Decimal;
  amountPaidUsd: Decimal;
  commissionAmount: Decimal;
  commissionAmountUsd: Decimal;
  networkFeeAmount: Decimal;
  networkFeeAmountUsd: Decimal;
  networkFeeCurrencyCode: string;
  depositNetworkFeeAmount: Decimal;
  depositNetworkFeeAmountUsd: Decimal;
  netAmount: Decimal;
  netAmountUsd: Decimal;
  txHash: string | null;
  completedAt: string;
}

export interface InvoiceItem {
  name: string;
  quantity: Decimal;
  cost: Decimal;
}

export interface InvoiceRecord {
  id: string;
  accountId: string;
  orderId: string | null;
  amount: Decimal;
  fiatCurrencyCode: string;
  items: InvoiceItem[] | null;
  status: InvoiceStatus;
  cryptoCurrencyCode: string | null;
  cryptoAmountExpected: Decimal | null;
  cryptoAmountReceived: Decimal | null;
  address: string | null;
  txHash: string | null;
  settlement: Settlement | null;
  /** Current deadline: the invoice's own, or the currency lock's when sooner. */
  expiresAt: string;
  /** The deadline the invoice was created with. */
  invoiceExpiresAt: string;
  createdAt: string;
  paidAt: string | null;
  paymentPageUrl: string;
  customPayload: string | null;
  description: string | null;
  number: string | null;
  webhookUrl: string | null;
  returnUrl: string | null;
  successUrl: string | null;
  failedUrl: string | null;
  customerId: string | null;
  /** Net amount already credited to the balance (settlement is recomputed on each payment). */
  creditedNet: Decimal;
}

export interface DepositRecord {
  id: string;
  accountId: string;
  orderId: string;
  cryptoCurrencyCode: string;
  address: string;
  minimumAmount: Decimal;
  createdAt: string;
  expiresAt: string;
  qrCode: string;
  status: DepositStatus;
  /** When the status (or settlement) last changed; `createdAt` until then. */
  updatedAt: string;
  settlement: Settlement | null;
  txHash: string | null;
  /** What the paying transaction brings, once a payment is seen (webhook `actuallyReceivedAmount`). */
  receivedAmount: Decimal | null;
  customerId: string | null;
  webhookUrl: string | null;
}

export interface AutoConvert {
  fromAssetCode: string;
  toAssetCode: string;
  fromAmount: Decimal;
  toAmount: Decimal;
}

export interface QuoteRecord {
  quoteId: string;
  orderId: string;
  accountId: string;
  cryptoCurrencyCode: string;
  address: string;
  amount: Decimal;
  autoConvert: AutoConvert | null;
  totalDeduction: Decimal;
  fee: {
    feeNative: Decimal;
    feeCurrency: string;
    feeInCryptoCurrencyCode: Decimal;
    feeUsd: Decimal;
  };
  expiresAt: string;
  createdAt: string;
  /** Set once committed: the quote then backs exactly this withdrawal. */
  withdrawalId: string | null;
}

export interface WithdrawalRecord {
  id: string;
  orderId: string;
  accountId: string;
  cryptoCurrencyCode: string;
  address: string;
  amount: Decimal;
  status: WithdrawalStatus;
  transactionHash: string | null;
  feeAmount: Decimal;
  debitedAmount: Decimal;
  createdAt: string;
  updatedAt: string;
  quoteId: string;
  /** The commit's `customData` object, echoed back; null when none was sent. */
  customData: Record<string, unknown> | null;
  webhookUrl: string | null;
  autoConvert: AutoConvert | null;
  /** `feeAmount` and `amount` in USD at the sandbox's rate, snapshotted at the commit. */
  feeAmountUsd: Decimal;
  amountUsd: Decimal;
  /** The network transfer backing the withdrawal: the quote's id, as the SDK says it is. */
  transferId: string;
  /** The auto-conversion that funded the withdrawal, if one was applied at the commit. */
  convertId: string | null;
}

export interface WebhookAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface WebhookRecord {
  id: string;
  event: string;
  objectId: string;
  orderId: string | null;
  status: string | null;
  url: string | null;
  /** The raw body exactly as signed and sent. */
  body: string;
  /** Lowercase hex HMAC-SHA256 of `body`; empty only for the instant before signing ends. */
  signature: string;
  attempts: WebhookAttempt[];
  delivered: boolean;
}

/** Everything a sandbox holds. */
export interface SandboxState {
  options: SandboxOptions;
  now(): Date;
  scheduler: Scheduler;
  invoices: Map<string, InvoiceRecord>;
  invoiceIdByOrderId: Map<string, string>;
  deposits: Map<string, DepositRecord>;
  depositIdByOrderId: Map<string, string>;
  quotes: Map<string, QuoteRecord>;
  /** `${accountId}|${orderId}` → the current quote for that withdrawal order. */
  quoteIdByOrderKey: Map<string, string>;
  withdrawals: Map<string, WithdrawalRecord>;
  balances: Map<string, Decimal>;
  webhooks: WebhookRecord[];
  /**
   * Per object (invoice, deposit, withdrawal): the tail of its first delivery attempts, so one
   * object's webhooks arrive in the order its events happened, while different objects'
   * webhooks are delivered concurrently, as a real sender does (a global queue would cap the
   * sandbox at one delivery per worker round trip).
   */
  deliveryChains: Map<string, Promise<void>>;
  /**
   * When set (`PUT /sandbox/webhook-url` with `"all":true`), every delivery goes here, even an
   * object's own `webhookUrl`: a bench sends the load to one runtime socket with it.
   */
  webhookRedirect: string | null;
  /** Extra request headers of every delivery (`PUT /sandbox/webhook-url` with `headers`). */
  webhookHeaders: Record<string, string>;
  /** The webhook connections: bounded keep-alive pools per destination, closed on dispose. */
  sender: DeliverySender;
  faults: Fault[];
  requests: RequestLogEntry[];
  /**
   * API requests whose work has not been done yet (held by a `delay` fault, or running). A
   * client that gave up on such a request can still see it take effect later, as with a real
   * service; `GET /sandbox/in-flight` lets a test wait until the service's truth stops moving.
   * Each entry holds the orderId the request is about (null: none; undefined: not known yet).
   */
  workInFlight: Map<object, string | null | undefined>;
  inbox: InboxState;
  /** The x402 facilitator: settlements, payers' balances, used nonces, armed failures. */
  x402: X402State;
  createdAt: string;
}

/**
 * Creates an empty state with resolved options.
 * @example
 * const state = createState({ ...DEFAULT_OPTIONS, webhookUrl: null });
 */
export function createState(options: SandboxOptions): SandboxState {
  const clock = options.now ?? (() => new Date());
  return {
    options,
    now: clock,
    scheduler: createScheduler(),
    invoices: new Map(),
    invoiceIdByOrderId: new Map(),
    deposits: new Map(),
    depositIdByOrderId: new Map(),
    quotes: new Map(),
    quoteIdByOrderKey: new Map(),
    withdrawals: new Map(),
    balances: new Map(),
    webhooks: [],
    deliveryChains: new Map(),
    webhookRedirect: null,
    webhookHeaders: {},
    sender: createDeliverySender(),
    faults: [],
    requests: [],
    workInFlight: new Map(),
    inbox: { entries: [], failures: null },
    x402: createX402State(options.x402ConfirmMs),
    createdAt: clock().toISOString(),
  };
}

/**
 * The current time as an ISO-8601 string.
 * @example
 * nowIso(state); // "2025-01-01T00:00:00.000Z"
 */
export function nowIso(state: SandboxState): string {
  return state.now().toISOString();
}

/**
 * An ISO timestamp `ms` milliseconds after now.
 * @example
 * isoAfter(state, 60_000);
 */
export function isoAfter(state: SandboxState, ms: number): string {
  return new Date(state.now().getTime() + ms).toISOString();
}
