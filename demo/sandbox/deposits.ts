/**
 * @module deposits
 * Standalone deposits: creation with orderId idempotency (address and QR code are prepared
 * before the synchronous lookup-and-insert), lookup, the deposit status graph (a sandbox
 * choice; the service publishes none) and the admin simulation, whose completion credits
 * amount − depositNetworkFee − commission (commission rounded UP) to the balance.
 */
import { requireAccount } from "./accounts.ts";
import { newTxHash } from "./addresses.ts";
import { adjustBalance } from "./balances.ts";
import { type CryptoCurrency, cryptoCurrency } from "./currencies.ts";
import { Dec, type Decimal, decimalPlaces } from "./decimal.ts";
import { optionalString, optionalUrl, requiredString } from "./fields.ts";
import { cryptoToUsd } from "./rates.ts";
import { settle, settlementView } from "./settlement.ts";
import {
  type DepositRecord,
  type DepositStatus,
  isoAfter,
  nowIso,
  type SandboxState,
  type WebhookRecord,
} from "./state.ts";
import { emitWebhook } from "./webhooks.ts";
import { invalidQuery, WireError } from "./wire.ts";

/** How long a standalone deposit address stays open (sandbox choice). */
export const DEPOSIT_LIFETIME_MS = 24 * 60 * 60_000;

export const DEPOSIT_TRANSITIONS: Record<DepositStatus, readonly DepositStatus[]> = {
  created: ["processing", "expired", "cancelled", "failed"],
  processing: ["completed", "suspended", "failed"],
  suspended: ["processing", "completed", "failed"],
  completed: [],
  failed: [],
  expired: [],
  cancelled: [],
};

/** A validated POST /deposit body. */
export interface DepositRequest {
  accountId: string;
  currency: CryptoCurrency;
  orderId: string;
  customerId: string | null;
  webhookUrl: string | null;
}

/**
 * Validates a POST /deposit body (400 invalidBody / deposit.currencyNotFound, 404 account).
 * @example
 * parseDepositRequest(state, { accountId, cryptoCurrencyCode: "BTC", orderId: "dep-1" });
 */
export function parseDepositRequest(
  state: SandboxState,
  body: Record<string, unknown>,
): DepositRequest {
  const accountId = requiredString(body, "accountId");
  const code = requiredString(body, "cryptoCurrencyCode");
  const orderId = requiredString(body, "orderId");
  requireAccount(state, accountId);
  const currency = cryptoCurrency(code);
  if (!currency) throw new WireError(400, "exceptions.deposit.currencyNotFound", `Unknown ${code}`);
  const customerId = optionalString(body, "customerId");
  return { accountId, currency, orderId, customerId, webhookUrl: optionalUrl(body, "webhookUrl") };
}

/**
 * The deposit already created for an orderId, if any.
 * @example
 * depositByOrderId(state, "dep-1")?.id;
 */
export function depositByOrderId(state: SandboxState, orderId: string) {
  return state.deposits.get(state.depositIdByOrderId.get(orderId) ?? "");
}

/**
 * The original deposit for a repeated orderId, or undefined for a new one. A repeat with another
 * crypto currency is 409 `exceptions.deposit.orderIdAlreadyExists` (*assumed*: named like the
 * invoice's; the public sources do not show it), never a silent answer for the wrong currency.
 * @example
 * repeatedDeposit(state, req); // the original, or undefined
 */
export function repeatedDeposit(state: SandboxState, req: DepositRequest) {
  const existing = depositByOrderId(state, req.orderId);
  if (existing && existing.cryptoCurrencyCode !== req.currency.code) {
    throw new WireError(
      409,
      "exceptions.deposit.orderIdAlreadyExists",
      `orderId already used for a ${existing.cryptoCurrencyCode} deposit`,
    );
  }
  return existing;
}

/**
 * Inserts a deposit, or returns the original for its orderId. Synchronous (race-free).
 * @example
 * insertDeposit(state, req, address, qrCode); // { deposit, created: true }
 */
export function insertDeposit(
  state: SandboxState,
  req: DepositRequest,
  address: string,
  qrCode: string,
) {
  const existing = repeatedDeposit(state, req);
  if (existing) return { deposit: existing, created: false };
  const deposit: DepositRecord = {
    id: crypto.randomUUID(),
    accountId: req.accountId,
    orderId: req.orderId,
    cryptoCurrencyCode: req.currency.code,
    address,
    minimumAmount: new Dec(req.currency.minDepositAmount),
    createdAt: nowIso(state),
    expiresAt: isoAfter(state, DEPOSIT_LIFETIME_MS),
    qrCode,
    status: "created",
    updatedAt: nowIso(state),
    settlement: null,
    receivedAmount: null,
    txHash: null,
    customerId: req.customerId,
    webhookUrl: req.webhookUrl,
  };
  state.deposits.set(deposit.id, deposit);
  state.depositIdByOrderId.set(deposit.orderId, deposit.id);
  return { deposit, created: true };
}

/**
 * The POST /deposit response object.
 * @example
 * createdView(dep); // { id, minimumAmount, address, createdAt, expiresAt, qrCode }
 */
export function createdView(d: DepositRecord) {
  const { id, minimumAmount, address, createdAt, expiresAt, qrCode } = d;
  return { id, minimumAmount, address, createdAt, expiresAt, qrCode };
}

/**
 * The GET /deposit object (SDK `Deposit`): the create answer's address, dates and ids plus
 * accountId, orderId, the echoed customerId (absent when none was given), status, currency,
 * updatedAt and, once completed, the settlement (absent before: never `null`). The deposit
 * address window's `minimumAmount` and `qrCode` belong to the create answer only.
 * @example
 * depositView(dep).status; // "created"
 */
export function depositView(d: DepositRecord) {
  return {
    id: d.id,
    accountId: d.accountId,
    orderId: d.orderId,
    customerId: d.customerId ?? undefined,
    status: d.status,
    cryptoCurrencyCode: d.cryptoCurrencyCode,
    address: d.address,
    expiresAt: d.expiresAt,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    settlement: d.settlement === null ? undefined : settlementView(d.settlement),
  };
}

/**
 * A deposit webhook's `data` (SDK `DepositStatusChangedWebhookData`): the GET object plus the
 * payment facts, `null` while unknown (the SDK types them nullable): the paying transaction's
 * hash and the amount received, in the coin and in USD at the sandbox's rate.
 * @example
 * depositWebhookData(dep).actuallyReceivedAmount; // null before a payment arrives
 */
export function depositWebhookData(d: DepositRecord) {
  const received = d.receivedAmount;
  return {
    ...depositView(d),
    depositTransactionHash: d.txHash,
    actuallyReceivedAmount: received,
    actuallyReceivedAmountUsd:
      received === null ? null : cryptoToUsd(received, d.cryptoCurrencyCode),
  };
}

/**
 * Finds a deposit by `id` or `orderId` query, after the account check.
 * @example
 * findDeposit(state, new URLSearchParams({ accountId, orderId: "dep-1" }));
 */
export function findDeposit(state: SandboxState, q: URLSearchParams): DepositRecord {
  const accountId = q.get("accountId");
  if (!accountId) throw invalidQuery("accountId is required");
  requireAccount(state, accountId);
  const id = q.get("id");
  const orderId = q.get("orderId");
  if (!id && !orderId) throw invalidQuery("id or orderId is required");
  const d = id ? state.deposits.get(id) : depositByOrderId(state, orderId ?? "");
  if (!d) throw new WireError(404, "exceptions.deposit.notFound", "Deposit not found");
  return d;
}

/**
 * Finds a deposit by id or orderId for the admin helpers.
 * @example
 * findDepositByRef(state, "dep-1");
 */
export function findDepositByRef(state: SandboxState, ref: string): DepositRecord {
  const d = state.deposits.get(ref) ?? depositByOrderId(state, ref);
  if (!d) throw new WireError(404, "exceptions.deposit.notFound", "Deposit not found");
  return d;
}

function move(state: SandboxState, d: DepositRecord, to: DepositStatus) {
  const previousStatus = d.status;
  d.status = to;
  d.updatedAt = nowIso(state);
  return emitWebhook(state, {
    event: "deposit.statusChanged",
    objectId: d.id,
    orderId: d.orderId,
    url: d.webhookUrl,
    data: depositWebhookData(d),
    previousStatus,
  });
}

const ACTIONS: Record<string, DepositStatus> = {
  processing: "processing",
  completed: "completed",
  suspend: "suspended",
  fail: "failed",
  expire: "expired",
  cancel: "cancelled",
};

/**
 * Runs one admin simulation on a deposit (`completed` goes through `processing` first when
 * the deposit is still `created` and processingFirst is not false).
 * @example
 * await simulateDeposit(state, dep, { action: "completed", amount: new Dec("100"), processingFirst: true });
 */
export async function simulateDeposit(
  state: SandboxState,
  d: DepositRecord,
  sim: { action: string; amount: Decimal | null; processingFirst: boolean },
): Promise<DepositRecord> {
  const target = ACTIONS[sim.action];
  if (!target) throw new WireError(400, "exceptions.validation.invalidBody", "Unknown action");
  const cur = cryptoCurrency(d.cryptoCurrencyCode)!;
  const steps: DepositStatus[] =
    target === "completed" && sim.processingFirst && d.status === "created"
      ? ["processing", "completed"]
      : [target];
  let from = d.status;
  for (const to of steps) {
    if (!DEPOSIT_TRANSITIONS[from].includes(to)) {
      const msg = `Cannot ${sim.action} a deposit in status ${d.status}`;
      throw new WireError(409, "exceptions.sandbox.invalidTransition", msg);
    }
    from = to;
  }
  const amount = sim.amount ?? d.minimumAmount.times("10");
  if (amount.lte("0") || decimalPlaces(amount) > cur.decimalPlaces) {
    const msg = `amount must be above 0 with at most ${cur.decimalPlaces} decimal places`;
    throw new WireError(400, "exceptions.sandbox.invalidAmount", msg);
  }
  // A payment on its way: its amount is known from the moment it is seen (processing).
  if (target === "completed") d.receivedAmount = amount;
  const sent: Promise<WebhookRecord>[] = [];
  for (const to of steps) {
    if (to === "processing" && d.txHash === null) d.txHash = newTxHash(cur.network);
    if (to === "completed") {
      d.txHash ??= newTxHash(cur.network);
      d.settlement = settle(cur, amount, d.txHash, nowIso(state));
      adjustBalance(state, cur.code, d.settlement.netAmount);
    }
    sent.push(move(state, d, to));
  }
  await Promise.all(sent);
  return d;
}
