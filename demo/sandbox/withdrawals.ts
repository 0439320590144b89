/**
 * @module withdrawals
 * POST /withdrawal/commit and committed withdrawals: a quote backs at most one withdrawal and
 * its totalDeduction is debited exactly once (commit is synchronous: concurrent commits of one
 * quote all see the same withdrawal); lookup; the withdrawal status graph (a sandbox choice)
 * and its admin simulation. A failed or cancelled withdrawal refunds its debit.
 */
import { requireAccount } from "./accounts.ts";
import { newTxHash } from "./addresses.ts";
import { adjustBalance, balanceOf } from "./balances.ts";
import { cryptoCurrency } from "./currencies.ts";
import { optionalUrl, requiredString } from "./fields.ts";
import { cryptoToUsd } from "./rates.ts";
import {
  nowIso,
  type SandboxState,
  type WebhookRecord,
  type WithdrawalRecord,
  type WithdrawalStatus,
} from "./state.ts";
import { emitWebhook } from "./webhooks.ts";
import { invalidBody, invalidQuery, WireError } from "./wire.ts";

export const WITHDRAWAL_TRANSITIONS: Record<WithdrawalStatus, readonly WithdrawalStatus[]> = {
  created: ["processing", "failed", "cancelled"],
  processing: ["completed", "failed"],
  completed: [],
  failed: [],
  cancelled: [],
};

function notFound(): WireError {
  return new WireError(404, "exceptions.withdrawal.notFound", "Withdrawal not found");
}

/**
 * Commits a quote (body `{quoteId, customData?, webhookUrl?}`); a second commit of the same
 * quote returns the same withdrawal with `created: false` and debits nothing.
 * @example
 * const { withdrawal, created } = commitWithdrawal(state, { quoteId });
 */
export function commitWithdrawal(state: SandboxState, body: Record<string, unknown>) {
  const quoteId = requiredString(body, "quoteId");
  const customData = readCustomData(body);
  const webhookUrl = optionalUrl(body, "webhookUrl");
  const q = state.quotes.get(quoteId);
  if (!q) throw notFound();
  if (q.withdrawalId) return { withdrawal: state.withdrawals.get(q.withdrawalId)!, created: false };
  if (Date.parse(q.expiresAt) <= state.now().getTime()) {
    throw new WireError(409, "exceptions.withdrawal.quoteExpired", "Quote expired: quote again");
  }
  const ac = q.autoConvert;
  const target = balanceOf(state, q.cryptoCurrencyCode).plus(ac ? ac.toAmount : "0");
  const sourceShort = ac !== null && balanceOf(state, ac.fromAssetCode).lt(ac.fromAmount);
  if (target.lt(q.totalDeduction) || sourceShort) {
    throw new WireError(400, "exceptions.withdrawal.insufficientBalance", "Insufficient balance");
  }
  if (ac) {
    adjustBalance(state, ac.fromAssetCode, ac.fromAmount.neg());
    adjustBalance(state, ac.toAssetCode, ac.toAmount);
  }
  adjustBalance(state, q.cryptoCurrencyCode, q.totalDeduction.neg());
  const at = nowIso(state);
  const withdrawal: WithdrawalRecord = {
    id: crypto.randomUUID(),
    orderId: q.orderId,
    accountId: q.accountId,
    cryptoCurrencyCode: q.cryptoCurrencyCode,
    address: q.address,
    amount: q.amount,
    status: "created",
    transactionHash: null,
    feeAmount: q.fee.feeInCryptoCurrencyCode,
    debitedAmount: q.totalDeduction,
    createdAt: at,
    updatedAt: at,
    quoteId: q.quoteId,
    customData,
    webhookUrl,
    autoConvert: ac,
    feeAmountUsd: cryptoToUsd(q.fee.feeInCryptoCurrencyCode, q.cryptoCurrencyCode),
    amountUsd: cryptoToUsd(q.amount, q.cryptoCurrencyCode),
    transferId: q.quoteId,
    convertId: ac ? crypto.randomUUID() : null,
  };
  state.withdrawals.set(withdrawal.id, withdrawal);
  q.withdrawalId = withdrawal.id;
  return { withdrawal, created: true };
}

/** The commit's optional `customData`: a JSON object (kept exactly, numbers as sent), or null. */
function readCustomData(body: Record<string, unknown>): Record<string, unknown> | null {
  const customData = body.customData ?? null;
  if (customData !== null && (typeof customData !== "object" || Array.isArray(customData))) {
    throw invalidBody("customData must be an object");
  }
  return customData as Record<string, unknown> | null;
}

/**
 * The withdrawal object as commit and GET return it, also the webhook data (SDK `Withdrawal`):
 * fee and amount in USD, the transfer and (auto-convert) conversion ids, the echoed customData
 * and webhookUrl (absent when none was sent) and `source: "api"`.
 * @example
 * withdrawalView(w).status; // "created"
 */
export function withdrawalView(w: WithdrawalRecord) {
  const { id, orderId, accountId, cryptoCurrencyCode, address, amount } = w;
  const { transactionHash, status, convertId, feeAmount, feeAmountUsd, amountUsd } = w;
  const { debitedAmount, createdAt, updatedAt, quoteId, transferId } = w;
  return {
    ...{ id, orderId, accountId, cryptoCurrencyCode, address, amount, transactionHash, status },
    ...{ convertId, feeAmount, feeAmountUsd, amountUsd, debitedAmount },
    customData: w.customData ?? undefined,
    webhookUrl: w.webhookUrl ?? undefined,
    source: "api" as const,
    ...{ createdAt, updatedAt, quoteId, transferId },
  };
}

function byOrderId(state: SandboxState, accountId: string, orderId: string) {
  const q = state.quotes.get(state.quoteIdByOrderKey.get(`${accountId}|${orderId}`) ?? "");
  return q?.withdrawalId ? state.withdrawals.get(q.withdrawalId) : undefined;
}

/**
 * Finds a withdrawal by `id` or `orderId` query, after the account check.
 * @example
 * findWithdrawal(state, new URLSearchParams({ accountId, orderId: "wd-1" }));
 */
export function findWithdrawal(state: SandboxState, q: URLSearchParams): WithdrawalRecord {
  const accountId = q.get("accountId");
  if (!accountId) throw invalidQuery("accountId is required");
  requireAccount(state, accountId, "exceptions.withdrawal.tenantAccountNotFound");
  const id = q.get("id");
  const orderId = q.get("orderId");
  if (!id && !orderId) {
    const code = "exceptions.withdrawal.eitherWithdrawalIdOrOrderIdMustBeProvided";
    throw new WireError(400, code, "id or orderId is required");
  }
  const w = id ? state.withdrawals.get(id) : byOrderId(state, accountId, orderId ?? "");
  if (!w) throw notFound();
  return w;
}

/**
 * Finds a withdrawal by id or orderId for the admin helpers.
 * @example
 * findWithdrawalByRef(state, "wd-1");
 */
export function findWithdrawalByRef(state: SandboxState, ref: string): WithdrawalRecord {
  const w = state.withdrawals.get(ref) ?? byOrderId(state, state.options.accountId, ref);
  if (!w) throw notFound();
  return w;
}

function move(state: SandboxState, w: WithdrawalRecord, to: WithdrawalStatus) {
  const previousStatus = w.status;
  w.status = to;
  w.updatedAt = nowIso(state);
  return emitWebhook(state, {
    event: "withdrawal.statusChanged",
    objectId: w.id,
    orderId: w.orderId,
    url: w.webhookUrl,
    data: withdrawalView(w),
    previousStatus,
  });
}

const ACTIONS: Record<string, WithdrawalStatus> = {
  processing: "processing",
  completed: "completed",
  fail: "failed",
  cancel: "cancelled",
};

/**
 * Runs one admin simulation on a withdrawal; `completed` from `created` passes `processing`.
 * @example
 * await simulateWithdrawal(state, w, { action: "completed", processingFirst: true });
 */
export async function simulateWithdrawal(
  state: SandboxState,
  w: WithdrawalRecord,
  sim: { action: string; processingFirst: boolean },
): Promise<WithdrawalRecord> {
  const target = ACTIONS[sim.action];
  if (!target) throw new WireError(400, "exceptions.validation.invalidBody", "Unknown action");
  const steps: WithdrawalStatus[] =
    target === "completed" && sim.processingFirst && w.status === "created"
      ? ["processing", "completed"]
      : [target];
  let from = w.status;
  for (const to of steps) {
    if (!WITHDRAWAL_TRANSITIONS[from].includes(to)) {
      const msg = `Cannot ${sim.action} a withdrawal in status ${w.status}`;
      throw new WireError(409, "exceptions.sandbox.invalidTransition", msg);
    }
    from = to;
  }
  const network = cryptoCurrency(w.cryptoCurrencyCode)!.network;
  const sent: Promise<WebhookRecord>[] = [];
  for (const to of steps) {
    if (to === "processing") w.transactionHash = newTxHash(network);
    if (to === "failed" || to === "cancelled") {
      adjustBalance(state, w.cryptoCurrencyCode, w.debitedAmount);
    }
    sent.push(move(state, w, to));
  }
  await Promise.all(sent);
  return w;
}
