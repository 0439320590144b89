/**
 * @module invoice-payment
 * Paying an invoice: the currency lock (a SANDBOX EXTENSION — the public API has no such
 * operation; the payer locks a currency on the hosted page) and the admin "Simulate payment"
 * moves, with received amounts that accumulate and exact settlement and balance credit.
 */

import { newAddress, newTxHash } from "./addresses.ts";
import { adjustBalance } from "./balances.ts";
import { type CryptoCurrency, cryptoCurrency } from "./currencies.ts";
import { Dec, type Decimal, decimalPlaces, roundDown, roundUp, unit } from "./decimal.ts";
import { canMove, moveInvoice } from "./invoice-status.ts";
import { fiatToCrypto } from "./rates.ts";
import { settle } from "./settlement.ts";
import type { InvoiceRecord, InvoiceStatus, SandboxState, WebhookRecord } from "./state.ts";
import { nowIso } from "./state.ts";
import { WireError } from "./wire.ts";

/** The currency the hosted page would pick when a simulation needs one. */
export const DEFAULT_SIMULATION_CURRENCY = "USDT_TRC20";

/**
 * Resolves a currency code for a lock, or 400 `exceptions.invoice.currencyNotFound`.
 * @example
 * lockableCurrency("TRX").network; // "Tron"
 */
export function lockableCurrency(code: unknown): CryptoCurrency {
  const cur = cryptoCurrency(code);
  if (!cur) throw new WireError(400, "exceptions.invoice.currencyNotFound", "Unknown currency");
  return cur;
}

/**
 * Locks (or re-locks) a currency on a `created` invoice with a fresh address. Synchronous:
 * the caller generates `address` first, and every check runs after that await.
 * @example
 * lockInvoice(state, inv, lockableCurrency("BNB"), await newAddress("BNB"));
 */
export function lockInvoice(
  state: SandboxState,
  inv: InvoiceRecord,
  cur: CryptoCurrency,
  address: string,
): InvoiceRecord {
  const now = state.now().getTime();
  if (inv.status === "expired" || Date.parse(inv.invoiceExpiresAt) <= now) {
    throw new WireError(409, "exceptions.invoice.expired", "Invoice has expired");
  }
  const received = inv.cryptoAmountReceived;
  if (inv.status !== "created" || received?.gt("0")) {
    throw new WireError(409, "exceptions.invoice.notInCreatedStatus", `Invoice is ${inv.status}`);
  }
  const lockEnd = now + state.options.invoiceLockMinutes * 60_000;
  const end = Math.min(lockEnd, Date.parse(inv.invoiceExpiresAt));
  const sameCurrency = inv.cryptoCurrencyCode === cur.code && inv.address !== null;
  inv.cryptoCurrencyCode = cur.code;
  inv.cryptoAmountExpected = fiatToCrypto(
    inv.amount,
    inv.fiatCurrencyCode,
    cur.code,
    cur.decimalPlaces,
  );
  inv.cryptoAmountReceived = new Dec("0");
  if (!sameCurrency) inv.address = address;
  inv.expiresAt = new Date(end).toISOString();
  return inv;
}

/** Body of POST /sandbox/invoices/:ref/simulate. */
export interface InvoiceSimulation {
  action: string;
  amount: Decimal | null;
  processingFirst: boolean;
}

const PAYING = new Set(["processing", "paid", "partial", "over", "suspend"]);
const SIMPLE: Record<string, InvoiceStatus> = {
  processing: "processing",
  suspend: "suspended",
  expire: "expired",
  fail: "failed",
  cancel: "cancelled",
};
const SETTLING: Record<string, InvoiceStatus> = {
  paid: "paid",
  partial: "partially_paid",
  over: "overpaid",
};

function invalidTransition(inv: InvoiceRecord, action: string): WireError {
  return new WireError(
    409,
    "exceptions.sandbox.invalidTransition",
    `Cannot ${action} an invoice in status ${inv.status}`,
  );
}

function invalidAmount(message: string): WireError {
  return new WireError(400, "exceptions.sandbox.invalidAmount", message);
}

function receivedDelta(sim: InvoiceSimulation, missing: Decimal, dp: number): Decimal {
  if (sim.amount !== null && decimalPlaces(sim.amount) > dp) {
    throw invalidAmount(`amount allows ${dp} decimal places`);
  }
  if (sim.action === "paid") return missing;
  if (sim.action === "partial") {
    const part = sim.amount ?? roundDown(missing.div("2"), dp);
    if (part.lte("0") || part.gte(missing)) {
      throw invalidAmount(`partial amount must be above 0 and below ${missing.toFixed()}`);
    }
    return part;
  }
  const extra = sim.amount ?? roundUp(missing.times("0.1"), dp);
  if (extra.lte("0")) throw invalidAmount("over amount must be above 0");
  return missing.plus(extra.lt(unit(dp)) ? unit(dp) : extra);
}

/**
 * Runs one admin simulation on an invoice, emitting one webhook per status change.
 * @example
 * await simulateInvoice(state, inv, { action: "paid", amount: null, processingFirst: true });
 */
export async function simulateInvoice(
  state: SandboxState,
  inv: InvoiceRecord,
  sim: InvoiceSimulation,
): Promise<InvoiceRecord> {
  if (!(sim.action in SIMPLE) && !(sim.action in SETTLING)) {
    throw new WireError(400, "exceptions.validation.invalidBody", `Unknown action ${sim.action}`);
  }
  if (PAYING.has(sim.action) && inv.cryptoCurrencyCode === null && inv.status === "created") {
    const cur = lockableCurrency(DEFAULT_SIMULATION_CURRENCY);
    lockInvoice(state, inv, cur, await newAddress(cur.network));
  }
  // Synchronous from here: plan, check every step, then apply.
  const target = SIMPLE[sim.action] ?? SETTLING[sim.action]!;
  const steps: InvoiceStatus[] =
    sim.action in SETTLING && sim.processingFirst && inv.status === "created"
      ? ["processing", target]
      : [target];
  let from = inv.status;
  for (const to of steps) {
    if (!canMove(from, to)) throw invalidTransition(inv, sim.action);
    from = to;
  }
  const cur = inv.cryptoCurrencyCode === null ? null : cryptoCurrency(inv.cryptoCurrencyCode)!;
  let delta: Decimal | null = null;
  if (sim.action in SETTLING) {
    if (cur === null || inv.cryptoAmountExpected === null) throw invalidTransition(inv, sim.action);
    const missing = inv.cryptoAmountExpected.minus(inv.cryptoAmountReceived ?? 0);
    delta = receivedDelta(sim, missing, cur.decimalPlaces);
  }
  const sent: Promise<WebhookRecord>[] = [];
  for (const to of steps) {
    if (to === "processing" && cur) inv.txHash = newTxHash(cur.network);
    // A payment after a partial one is a new transaction; otherwise the processing one settles.
    if (delta !== null && cur && to === target) {
      if (inv.status === "partially_paid" || inv.txHash === null)
        inv.txHash = newTxHash(cur.network);
      applyPayment(state, inv, cur, delta);
    }
    sent.push(moveInvoice(state, inv, to));
  }
  await Promise.all(sent);
  return inv;
}

function applyPayment(
  state: SandboxState,
  inv: InvoiceRecord,
  cur: CryptoCurrency,
  delta: Decimal,
): void {
  const received = (inv.cryptoAmountReceived ?? new Dec("0")).plus(delta);
  inv.cryptoAmountReceived = received;
  const at = nowIso(state);
  inv.settlement = settle(cur, received, inv.txHash, at);
  adjustBalance(state, cur.code, inv.settlement.netAmount.minus(inv.creditedNet));
  inv.creditedNet = inv.settlement.netAmount;
  inv.paidAt = at;
}
