/**
 * @module x402-settle
 * `POST /x402/settle`: verify again, then in one synchronous step mark the nonce used, debit
 * the payer, record the settlement `submitted` and "broadcast" it (a fresh transaction hash),
 * and answer success with that hash. `confirmMs` later it is `confirmed`, or — when armed to
 * fail — `failed` with the debit given back and the nonce freed; each end sends its signed
 * webhook (`x402.payment.settled` / `x402.payment.failed`).
 *
 * Invariants:
 * - One authorization (payer, nonce, signature) makes at most one live settlement and one
 *   debit: a repeat answers the same success and transaction, also when two arrive at once
 *   (the only await, the signature check, comes before the check-and-commit).
 * - A different signature over a used nonce is refused `invalid_exact_evm_nonce_already_used`.
 */
import type { SettleResponse } from "../../worker/lib/x402/protocol.ts";
import { newTxHash } from "./addresses.ts";
import { nowIso, type SandboxState } from "./state.ts";
import { sendSigned } from "./webhooks.ts";
import { jsonText, WireError } from "./wire.ts";
import type { X402Settlement, X402SettlementRecord } from "./x402-records.ts";
import type { FacilitatorCall } from "./x402-request.ts";
import { nonceKey, payerBalance, refusal, signatureValid, X402_USDC } from "./x402-verify.ts";

/** The events of x402 settlements. */
export type X402Event = "x402.payment.settled" | "x402.payment.failed";

/** The live settlement of the same authorization (same payer, nonce and signature), if any. */
function sameAuthorization(state: SandboxState, call: FacilitatorCall) {
  const id = state.x402.byNonce.get(nonceKey(call));
  const rec = id === undefined ? undefined : state.x402.settlements.get(id);
  return rec && rec.signature === call.signature.toLowerCase() ? rec : null;
}

function succeeded(rec: X402SettlementRecord): SettleResponse {
  const s = rec.settlement;
  return { success: true, payer: s.payer, transaction: s.transaction, network: s.network };
}

/** Refuses a new entry past the cap: a clear 503 instead of growing without end. */
function ensureRoom(state: SandboxState, payer: string): void {
  const x = state.x402;
  if (x.settlements.size >= x.limit || (!x.balances.has(payer) && x.balances.size >= x.limit)) {
    throw new WireError(
      503,
      "exceptions.sandbox.x402Full",
      `The sandbox keeps at most ${x.limit} x402 settlements and payers: restart it`,
    );
  }
}

/** Debits, records and broadcasts; all synchronous (see the module's invariants). */
function commit(state: SandboxState, call: FacilitatorCall): X402SettlementRecord {
  const { authorization: auth, requirements: req } = call;
  const payer = auth.from.toLowerCase();
  ensureRoom(state, payer);
  const x = state.x402;
  const debit = BigInt(auth.value);
  x.balances.set(payer, payerBalance(state, payer) - debit);
  const failing = x.failNext.remaining > 0;
  if (failing) x.failNext.remaining -= 1;
  const settlement: X402Settlement = {
    id: `x402_${crypto.randomUUID()}`,
    status: "submitted",
    network: req.network,
    asset: X402_USDC.address,
    amount: debit.toString(),
    payer: auth.from,
    payTo: req.payTo,
    transaction: "",
    errorReason: null,
    createdAt: nowIso(state),
    confirmedAt: null,
  };
  const rec: X402SettlementRecord = {
    settlement,
    nonceKey: nonceKey(call),
    signature: call.signature.toLowerCase(),
    debit,
    failsWith: failing ? x.failNext.reason : null,
  };
  x.settlements.set(settlement.id, rec);
  x.byNonce.set(rec.nonceKey, settlement.id);
  // Broadcast: the transaction exists from here on, whatever the chain then makes of it.
  settlement.transaction = newTxHash("Base");
  state.scheduler.later(() => finish(state, rec), x.confirmMs);
  return rec;
}

/** The chain's verdict, `confirmMs` after the broadcast. */
function finish(state: SandboxState, rec: X402SettlementRecord): void {
  const s = rec.settlement;
  if (rec.failsWith === null) {
    s.status = "confirmed";
    s.confirmedAt = nowIso(state);
    void emitX402Webhook(state, "x402.payment.settled", s);
    return;
  }
  s.status = "failed";
  s.errorReason = rec.failsWith;
  const payer = s.payer.toLowerCase();
  state.x402.balances.set(payer, payerBalance(state, payer) + rec.debit);
  // A reverted transfer leaves the nonce unused on chain: the payer may sign it again.
  if (state.x402.byNonce.get(rec.nonceKey) === s.id) state.x402.byNonce.delete(rec.nonceKey);
  void emitX402Webhook(state, "x402.payment.failed", s);
}

/**
 * Sends a settlement's signed webhook `{event, data: settlement, timestamp}` to the tenant's
 * webhook URL, through the same signed, retried delivery as every other event.
 * @example
 * await emitX402Webhook(state, "x402.payment.settled", rec.settlement);
 */
export function emitX402Webhook(state: SandboxState, event: X402Event, s: X402Settlement) {
  const body = jsonText({ event, data: s, timestamp: nowIso(state) });
  return sendSigned(state, {
    event,
    objectId: s.id,
    orderId: null,
    status: s.status,
    url: null,
    body,
  });
}

/**
 * The answer of `POST /x402/settle`.
 * @example
 * await settlePayment(state, call); // { success: true, transaction: "0x…", network: "eip155:84532", payer }
 */
export async function settlePayment(
  state: SandboxState,
  call: FacilitatorCall,
): Promise<SettleResponse> {
  const signed = await signatureValid(call);
  // Synchronous from here to the answer: no other request interleaves.
  const same = sameAuthorization(state, call);
  if (same) return succeeded(same);
  const refused = refusal(state, call, signed);
  if (refused) {
    return {
      success: false,
      errorReason: refused.reason,
      errorMessage: refused.message,
      payer: call.authorization.from,
      transaction: "",
      network: call.requirements.network,
    };
  }
  return succeeded(commit(state, call));
}
