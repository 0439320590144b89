/**
 * @module
 * The HTTP API's types: the contract between the worker, the widget, `@crypto-checkout/server`
 * (which publishes them to merchants' backends) and any other client. The one place they are
 * written; every side imports them from here.
 *
 * Invariants every response keeps:
 * - amounts are decimal strings (`"49.90"`, `"0.000123450000000000"`), never JSON numbers;
 * - errors are `{ error: { code, message } }` with a fitting HTTP status;
 * - nothing here ever carries the service's API key, account id or signing keys.
 *
 * The widget imports these types only (`import type`), so this file must stay free of runtime code.
 */

/** Invoice statuses as the payment service names them. */
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

/** Standalone deposit statuses as the payment service names them. */
export type DepositStatus =
  | "created"
  | "processing"
  | "completed"
  | "suspended"
  | "failed"
  | "expired"
  | "cancelled";

/** Withdrawal (payout) statuses as the payment service names them. */
export type WithdrawalStatus = "created" | "processing" | "completed" | "failed" | "cancelled";

/** `GET /v1/currencies` → `{ data: CryptoCurrency[] }`. */
export interface CryptoCurrency {
  code: string;
  name: string;
  /** Network name as the service gives it (`Bitcoin`, `Ethereum`, `BNB`, `Tron`, …). */
  network: string;
  /**
   * The one name shoppers see for the network (`BNB` and `BNB Smart Chain` both give
   * `BNB Smart Chain`); an unknown network keeps the service's name. Added by the worker.
   */
  networkName: string;
  /** `erc20` / `bep20` / `trc20` for tokens, `null` for native coins. */
  tokenType: string | null;
  decimalPlaces: number;
  minDepositAmount: string;
  minWithdrawalAmount: string;
  /** Fraction, e.g. `"0.005"` = 0.5 %. Tenant-specific; never a constant. */
  depositCommission: string;
  contractAddress: string | null;
  imageUrl: string | null;
  /** Regular expression source for client-side address validation, or null. */
  addressMask: string | null;
  /**
   * The service's current deposit network fee for top-ups (what `DepositSnapshot` shows), when
   * it quotes one; absent from entries the service sends without it.
   */
  depositNetworkFee?: { amount: string; quotedAt: string | null } | null;
}

/** `GET /v1/currencies/fiat` → `{ data: FiatCurrency[] }`. */
export interface FiatCurrency {
  code: string;
  name: string;
  decimalPlaces: number;
  minInvoiceAmount: string;
}

/** What the shopper must send for the current attempt (in-page mode, after a currency lock). */
export interface PaymentInstructions {
  cryptoCurrencyCode: string;
  /** The service's name of the currency (`Tether USD (TRC-20)`): what shoppers read. */
  currencyName: string;
  network: string;
  /** The network's display name (see `CryptoCurrency.networkName`). */
  networkName: string;
  decimalPlaces: number;
  /** Exact crypto amount expected for the attempt, rounded up to `decimalPlaces`. */
  amount: string;
  /** Crypto received so far on this attempt. */
  received: string;
  /** `amount - received`, never negative. */
  remaining: string;
  address: string;
  /**
   * Wallet deep link (BIP21 / EIP-681) for `remaining`; null where the network has no standard
   * payment URI (Tron, networks the worker does not know): pay by copy and QR of the address.
   */
  walletUri: string | null;
  expiresAt: string | null;
  /**
   * Whether money received beyond what is due could be sent back: a refund must reach the
   * currency's minimum payout plus the network fee. `minimum` is that sum; `possible` tells
   * whether the excess now (`received − amount` once overpaid, else `received`) reaches it.
   */
  refund: { excess: string; minimum: string; possible: boolean };
}

/** One upstream invoice made for the order: `<prefix>-<invoiceNumber>[-n]`. */
export interface AttemptView {
  /** 1 for the first attempt, then 2, 3, … */
  number: number;
  orderId: string;
  status: InvoiceStatus;
  /** The service's hosted payment page for this attempt. */
  paymentPageUrl: string;
  expiresAt: string | null;
  payment: PaymentInstructions | null;
}

/**
 * Merchant-side state of the order, from the gateway module's status table (the service's API), plus `refunded`: a
 * partially paid order whose received money is being (or was) refunded; it takes no more payment.
 */
export type OrderState = "unpaid" | "partially_paid" | "paid" | "refunded";

/** One refund of an order (`POST /v1/orders/:invoiceNumber/refund`), in the crypto refunded. */
export interface RefundView {
  /** The refund's payout orderId: `<prefix>-<n>-refund`, then `-refund-2`, … after a failure. */
  orderId: string;
  cryptoCurrencyCode: string;
  amount: string;
  /** Where the refund was paid; null only for refunds recorded before addresses were kept. */
  address: string | null;
  status: WithdrawalStatus;
}

/** `GET /v1/checkouts/:id`, `POST /v1/checkouts` and every SSE `snapshot` event. */
export interface CheckoutSnapshot {
  /**
   * Unguessable checkout id: 128 bits of HMAC-SHA256 over the invoice number, keyed by
   * `CHECKOUT_SIGNING_SECRET` (`lib/ids/checkout-id.ts`); not the upstream invoice id.
   */
  id: string;
  kind: "invoice";
  invoiceNumber: string;
  displayName: string;
  description: string | null;
  /** Fiat amount of the order, exact, with the fiat's decimal places. */
  amount: string;
  currency: string;
  fiatDecimalPlaces: number;
  /** True when the worker talks to the service's sandbox: test networks only. */
  sandbox: boolean;
  /** `in-page`: currency lock + address in the widget; `hosted`: the service's payment page. */
  mode: "in-page" | "hosted";
  orderState: OrderState;
  /** Fiat value applied to the order so far, across attempts. */
  amountPaid: string;
  /** `amount - amountPaid`, never negative. */
  amountDue: string;
  /** Fiat value received beyond the order amount ("0" when none). */
  amountOverpaid: string;
  /**
   * Fiat left unpaid on an order counted as paid because the shortfall is within the
   * merchant's `PAYMENT_TOLERANCE_PERCENT` ("0.00" when none).
   */
  amountShortfall?: string;
  /**
   * Set when the rest due cannot be paid through this checkout: the current attempt ended and
   * what is due is below the fiat's smallest invoice (`minInvoiceAmount`). `canRetry` is then
   * false; the merchant is notified (`order.underpaid`) to refund or accept.
   */
  underpaid?: { reason: "remainder_below_minimum"; amountDue: string; minimum: string } | null;
  attempt: AttemptView;
  /** True when the current attempt ended expired/failed/cancelled and the order is not paid. */
  canRetry: boolean;
  /** True when nothing more will change for the shopper (order paid). */
  final: boolean;
  refundAddress: { cryptoCurrencyCode: string; address: string } | null;
  /** Refunds of this order, oldest first (always sent by the worker; absent means none). */
  refunds?: RefundView[];
  returnUrl: string | null;
  /**
   * How this checkout may be paid from the shopper's own wallet (x402, USDC, no gas), or null
   * when it may not (x402 off, a fiat no stablecoin stands for, the order paid or refunded).
   * Always sent by the worker; absent means null.
   */
  x402?: X402Offer | null;
  /** The order's latest x402 payment, or null (always sent by the worker; absent means none). */
  x402Payment?: X402PaymentView | null;
  /** Sequence number of the last event applied; the SSE `id`. */
  seq: number;
  updatedAt: string;
}

/**
 * An x402 offer: what the widget shows on its "Pay from your wallet" button. The exact terms
 * to sign come from the route's 402 answer (`POST /v1/checkouts/:id/x402`, `PAYMENT-REQUIRED`),
 * never from here.
 */
export interface X402Offer {
  /** CAIP-2 network id (`eip155:8453` Base, `eip155:84532` Base Sepolia). */
  network: string;
  chainId: number;
  /** The network's name shoppers see ("Base", "Base Sepolia"). */
  chainName: string;
  /** Token symbol ("USDC"). */
  symbol: string;
  /** Token decimal places (6). */
  decimals: number;
  /** The token amount to pay, exact, as a decimal with `decimals` places ("12.340000"). */
  amount: string;
}

/** Where an x402 payment stands. */
export type X402PaymentStatus = "settling" | "submitted" | "confirmed" | "failed" | "unknown";

/** One x402 payment of an order, as the shopper and the merchant see it. */
export interface X402PaymentView {
  /**
   * `settling`: sent to the facilitator, no answer yet; `submitted`: broadcast, not yet
   * confirmed; `confirmed`: the money is in the merchant's wallet (applied to the order);
   * `failed`: nothing moved (the order stays payable); `unknown`: the facilitator's answer was
   * lost, the worker is reading the service's settlements to learn the outcome.
   */
  status: X402PaymentStatus;
  /** The payer's wallet (EIP-55). */
  payer: string;
  /** Token amount, decimal with the token's places ("12.340000"). */
  amount: string;
  /** Fiat value applied when confirmed (USD 1:1). */
  fiatAmount: string;
  network: string;
  /** The transaction hash, or null before broadcast. */
  transaction: string | null;
  /** Why it failed (the facilitator's reason), or null. */
  errorReason: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

/** Money a completed deposit credited, in the deposit's crypto currency (exact strings). */
export interface DepositSettlementView {
  /** Crypto received (`amountPaid`). */
  received: string;
  /** Deposit network fee deducted by the service (`depositNetworkFeeAmount`). */
  networkFee: string;
  /** Commission deducted: received × depositCommission, as the service rounded it. */
  commission: string;
  /** `received − networkFee − commission`: what the merchant's balance was credited. */
  net: string;
  /**
   * `service`: every figure is the service's own settlement; `computed`: the service omitted
   * the network fee, so the worker derived it as `received − commission − net`.
   */
  source: "service" | "computed";
}

/** A top-up: `POST /v1/deposits`, `GET /v1/deposits/:id` and every SSE `snapshot` event. */
export interface DepositSnapshot {
  /** Unguessable id (`d` + 22 base64url chars); not the upstream deposit id. */
  id: string;
  kind: "deposit";
  /** The merchant's top-up id (the token's `sub`). */
  topUpId: string;
  displayName: string;
  /** True when the worker talks to the service's sandbox: test networks only. */
  sandbox: boolean;
  cryptoCurrencyCode: string;
  /** The service's name of the currency. */
  currencyName: string;
  network: string;
  /** The network's display name (see `CryptoCurrency.networkName`). */
  networkName: string;
  decimalPlaces: number;
  /** Where the customer sends funds. */
  address: string;
  /** Smallest deposit the service credits at this address (from the deposit). */
  minimumAmount: string | null;
  /** The currency's minimum deposit (from the live currency list). */
  minDepositAmount: string;
  /** Tenant-specific commission as a fraction (`"0.005"`), read from `GET /currencies`. */
  depositCommission: string;
  /** The same as a percentage for display (`"0.5"`). */
  depositCommissionPercent: string;
  /** The currency's current deposit network fee, when the service quotes one. */
  depositNetworkFee: string | null;
  /** Wallet deep link without an amount (the customer chooses); null as in `PaymentInstructions`. */
  walletUri: string | null;
  expiresAt: string | null;
  status: DepositStatus;
  /** Set once the service settled the deposit (status `completed`). */
  settlement: DepositSettlementView | null;
  /** True when the status can no longer change (completed, failed, expired, cancelled). */
  final: boolean;
  /** Sequence number of the last event; the SSE `id`. */
  seq: number;
  updatedAt: string;
}

/**
 * A payout's state: `quoted` until committed, then the withdrawal's own status. `uncertain`:
 * a commit was sent but its answer was lost, garbled or a 5xx, so the withdrawal may exist;
 * the worker reads it back by orderId (on the next commit call, and by itself on a schedule)
 * and the payout moves to the withdrawal's status, or back to `quoted` if there is none.
 * Never pay such a payout again under another orderId.
 */
export type PayoutStatus = "quoted" | "uncertain" | WithdrawalStatus;

/** `POST /v1/payouts`: a quote for sending `amount` of a crypto currency to `address`. */
export interface PayoutRequest {
  /** Your id for this payout, `[A-Za-z0-9._:-]{1,100}`: the same orderId answers the same quote. */
  orderId: string;
  cryptoCurrencyCode: string;
  address: string;
  /** What the recipient receives, a decimal string. */
  amount: string;
}

/** `POST /v1/payouts`, `POST /v1/payouts/:orderId/commit`, `GET /v1/payouts/:orderId`, refunds. */
export interface PayoutView {
  /** The merchant's orderId: the idempotency key upstream, with the account id. */
  orderId: string;
  /** `refund` for `POST /v1/orders/:invoiceNumber/refund`, else `payout`. */
  kind: "payout" | "refund";
  invoiceNumber: string | null;
  status: PayoutStatus;
  cryptoCurrencyCode: string;
  network: string;
  address: string;
  /** What the recipient receives. */
  amount: string;
  /** The quote's network fee: in the chain's base coin, and in the withdrawal currency. */
  fee: {
    feeNative: string;
    feeCurrency: string;
    feeInCryptoCurrencyCode: string;
    feeUsd: string | null;
  };
  /** `amount + fee.feeInCryptoCurrencyCode`: what a commit debits from the balance. */
  totalDeduction: string;
  /** When the current quote stops being committable (a commit after it re-quotes first). */
  expiresAt: string;
  quoteId: string;
  /** The committed withdrawal, once there is one. */
  withdrawal: {
    id: string;
    status: WithdrawalStatus;
    transactionHash: string | null;
    feeAmount: string | null;
    debitedAmount: string | null;
    createdAt: string;
    updatedAt: string | null;
  } | null;
  createdAt: string;
  updatedAt: string;
}

/** Kinds of merchant notification (`MERCHANT_WEBHOOK_URL`). */
export type NotificationType =
  | "order.status_changed"
  | "order.payment_applied"
  | "order.paid"
  | "order.underpaid"
  | "deposit.status_changed"
  | "deposit.completed"
  | "payout.status_changed";

/** The JSON body of every notification POSTed to `MERCHANT_WEBHOOK_URL`. */
export interface CheckoutNotification {
  /** `evt_<uuid>`, also in `x-checkout-event-id`: the key to dedupe on. */
  id: string;
  type: NotificationType;
  createdAt: string;
  /** The effect's facts (`invoiceNumber`, `state`, amounts as decimal strings, …). */
  data: Record<string, unknown>;
}

/** One page of a merchant list (`GET /v1/orders`, `GET /v1/notifications`), newest first. */
export interface Page<T> {
  data: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** `GET /v1/orders` rows (and `GET /v1/orders.csv` columns, in this order). */
export interface OrderSummary {
  invoiceNumber: string;
  state: OrderState;
  /** The token's fiat amount and code. */
  amount: string;
  currency: string;
  /** Fiat applied so far ("0" if none). */
  amountPaid: string;
  /** The crypto currency it was paid or locked in. */
  cryptoCurrencyCode: string | null;
  cryptoAmountReceived: string | null;
  lastInvoiceStatus: InvoiceStatus | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  paidAt: string | null;
  /**
   * How the money came: `invoice` (the service's invoice), `x402` (the payer's wallet straight
   * to the merchant's), `both`; null while nothing is paid.
   */
  paymentMethod: "invoice" | "x402" | "both" | null;
  /** The payer's wallet and the transaction of the order's last confirmed x402 payment. */
  x402Payer: string | null;
  x402Transaction: string | null;
}

/** Delivery status of a notification. `failed`: its tries are exhausted; it can be redelivered. */
export type NotificationStatus = "pending" | "delivered" | "failed";

/** `GET /v1/notifications` rows, and what redeliver / test answer. */
export interface NotificationView {
  id: string;
  type: NotificationType;
  invoiceNumber: string | null;
  status: NotificationStatus;
  attempts: number;
  lastAttemptAt: string | null;
  /** e.g. `HTTP 500`, `timeout`; never a secret. */
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/**
 * One payment applied to an order, as its ledger shows it. Declared once: the order stores its
 * payments in this very shape (`order/store.ts` `PaymentRow`), so the ledger is the stored rows.
 */
export interface LedgerPayment {
  attempt: number;
  status: string;
  cryptoCode: string | null;
  cryptoAmount: string;
  fiatAmount: string;
  at: string;
}

/** `GET /v1/orders/:invoiceNumber`: the merchant's ledger of one order. */
export interface OrderLedgerView {
  invoiceNumber: string;
  /** The order's checkout id (see `CheckoutSnapshot.id`). */
  checkoutId: string;
  state: OrderState;
  amount: string;
  currency: string;
  amountPaid: string;
  amountDue: string;
  amountOverpaid: string;
  amountShortfall: string;
  customerId: string | null;
  refundAddress: { cryptoCurrencyCode: string; address: string } | null;
  attempts: {
    number: number;
    orderId: string;
    invoiceId: string;
    /** The service's status of the attempt's invoice. */
    status: InvoiceStatus;
    ended: boolean;
    fiatAmount: string;
    cryptoCurrencyCode: string | null;
    cryptoExpected: string | null;
    cryptoReceived: string;
    fiatApplied: string;
    fiatOverpaid: string;
    /** The service's settlement of the invoice, as it gave it; null until settled. */
    settlement: Record<string, unknown> | null;
  }[];
  refunds: (RefundView & { withdrawalId: string | null })[];
  /** Money applied to the order, oldest first. */
  payments: LedgerPayment[];
  /** The order's event log (without payloads). */
  log: { seq: number; type: string; message: string; at: string }[];
  /** The order's notification outbox. */
  notifications: {
    id: string;
    type: string;
    attempts: number;
    deliveredAt: string | null;
    lastStatus: string | null;
    createdAt: string;
  }[];
  /** The order's x402 payments (from the payer's wallet to the merchant's), oldest first. */
  x402Payments: X402PaymentView[];
  createdAt: string;
}

/** One line of the doctor's report. */
export interface DoctorCheckView {
  name: string;
  ok: boolean;
  /** Worth fixing, but not a failure (`ok` stays true). */
  warning?: boolean;
  message: string;
}

/** `GET /v1/doctor` (200 when `ok`, else 502). */
export interface DoctorReportView {
  ok: boolean;
  environment: "sandbox" | "production";
  baseUrl: string;
  paymentMode: { mode: "in-page" | "hosted"; reason: string };
  /** The deployment's one upstream budget (`UPSTREAM_MAX_RPS`) and what it means. */
  upstreamBudget: { maxCallsPerSecond: number; message: string };
  checks: DoctorCheckView[];
}

/** The body of every error response. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode | (string & {}); message: string };
}

/**
 * Error codes the widget can show a message for. Others may appear; treat them as `internal`.
 */
export type ApiErrorCode =
  | "bad_request"
  | "validation_failed"
  | "payload_too_large"
  | "unauthorized"
  | "forbidden_origin"
  | "not_found"
  | "method_not_allowed"
  | "token_invalid"
  | "token_expired"
  | "token_lifetime_exceeded"
  | "checkout_conflict"
  | "order_id_collision"
  | "attempt_open"
  | "order_paid"
  | "order_refunded"
  | "unknown_currency"
  | "currency_unavailable"
  | "amount_below_minimum"
  | "amount_invalid_decimals"
  | "invalid_address"
  | "insufficient_balance"
  | "nothing_to_refund"
  | "refund_address_missing"
  | "refund_address_frozen"
  | "lock_unsupported"
  | "rate_limited"
  | "service_busy"
  | "upstream_error"
  | "config_error"
  | "webhook_url_missing"
  | "signature_missing"
  | "signature_malformed"
  | "signature_invalid"
  | "invalid_json"
  | "schema_invalid"
  | "x402_not_offered"
  | "x402_in_flight"
  | "x402_payload_invalid"
  | "x402_payload_mismatch"
  | "x402_payment_refused"
  | "internal";

/** Names of the `CustomEvent`s the `<crypto-checkout>` element dispatches on itself. */
export type CheckoutEventName =
  | "checkout:status"
  | "checkout:paid"
  | "checkout:expired"
  | "checkout:error";
