/**
 * @module
 * The payout's quote steps: the first quote of an orderId, the existing payout for a repeated
 * one, and a fresh quote when the current one expired. Functions of the payout's face
 * (`payout-host.ts`), run inside its lane.
 *
 * Invariants:
 * - the same orderId always carries the same parameters (`same-payout.ts`), and is the only
 *   orderId sent upstream, so the service collapses every quote to one and backs at most one
 *   withdrawal with it;
 * - a quote answered "this orderId is already committed" (an earlier commit's answer was lost)
 *   reads the existing withdrawal back and adopts it, never pays again.
 */

import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import { MERCHANT_CALL, upstreamFor } from "../core/config/upstream.ts";
import { type Outcome, success } from "../lib/outcome/outcome.ts";
import type { Withdrawal, WithdrawalQuote } from "../service/types.ts";
import { upstreamFailure } from "../service/upstream-failure.ts";
import { applyWithdrawal } from "./apply-read.ts";
import { type PayoutHost, payoutRow } from "./payout-host.ts";
import { reasonOf } from "./refusal.ts";
import { conflict, sameParams } from "./same-payout.ts";
import { savePayout } from "./save-payout.ts";
import type { PayoutRequest, PayoutRow } from "./store.ts";
import { payoutView } from "./view.ts";

/** A quote this close to its expiry is re-quoted before a commit (clock skew, latency). */
const EXPIRY_MARGIN_MS = 3_000;

/**
 * True when a quote is expired, or about to (within `EXPIRY_MARGIN_MS`).
 *
 * @example
 * if (expired(row.quote)) row = unwrap(await requote(host, row));
 */
export function expired(quote: WithdrawalQuote): boolean {
  return Date.parse(quote.expiresAt) <= Date.now() + EXPIRY_MARGIN_MS;
}

type QuoteAnswer = { quote: WithdrawalQuote } | { committed: Withdrawal };

/** The service's quote for the orderId, or the withdrawal it already committed for it. */
async function upstreamQuote(host: PayoutHost, req: PayoutRequest): Promise<Outcome<QuoteAnswer>> {
  // A payout or a refund is the merchant's: the budget's first lane.
  const client = upstreamFor(host.config(), MERCHANT_CALL);
  const { orderId, cryptoCurrencyCode, address, amount } = req;
  try {
    return success({
      quote: await client.quoteWithdrawal({ orderId, cryptoCurrencyCode, address, amount }),
    });
  } catch (error) {
    if (reasonOf(error) !== "orderIdAlreadyExists") return upstreamFailure(error, host.logger());
    try {
      return success({ committed: await client.getWithdrawal({ orderId }) });
    } catch (readError) {
      return upstreamFailure(readError, host.logger());
    }
  }
}

/**
 * Quotes the payout, or answers the existing one for this orderId (re-quoted when its quote
 * expired); `created` only when new. In the lane.
 *
 * @example
 * return this.host.lane.run(() => quoteOnce(this.#payout, req));
 */
export async function quoteOnce(
  host: PayoutHost,
  req: PayoutRequest,
): Promise<Outcome<{ created: boolean; view: PayoutView }>> {
  if (!host.hasSchema()) host.ensureSchema();
  const row = payoutRow(host);
  if (row) {
    if (!sameParams(row, req) || row.kind !== req.kind) return conflict(row, req.orderId);
    if (row.status === "quoted" && expired(row.quote)) {
      const fresh = await requote(host, row);
      if (!fresh.ok) return fresh;
      return success({ created: false, view: payoutView(fresh.value) });
    }
    return success({ created: false, view: payoutView(row) });
  }
  const answer = await upstreamQuote(host, req);
  if (!answer.ok) return answer;
  if ("committed" in answer.value || !sameParams(answer.value.quote, req)) {
    // The service already knows this orderId with a commit or other details we never stored.
    return conflict(payoutRow(host), req.orderId);
  }
  const now = new Date().toISOString();
  const { quote } = answer.value;
  const created: PayoutRow = {
    ...req,
    status: "quoted",
    quote,
    quotes: 1,
    withdrawal: null,
    createdAt: now,
    updatedAt: now,
  };
  await savePayout(
    host,
    created,
    null,
    "payout.quoted",
    `quote ${quote.quoteId}: ${quote.totalDeduction} ${quote.cryptoCurrencyCode} to debit`,
  );
  return success({ created: true, view: payoutView(created) });
}

/**
 * A fresh quote for the same orderId and parameters; adopts a withdrawal that already exists
 * (and reports it to a refund's order). In the lane.
 *
 * @example
 * const fresh = await requote(host, row);
 * if (!fresh.ok) return fresh;
 */
export async function requote(host: PayoutHost, row: PayoutRow): Promise<Outcome<PayoutRow>> {
  const answer = await upstreamQuote(host, row);
  if (!answer.ok) return answer;
  if ("committed" in answer.value) {
    const w = answer.value.committed;
    if (!sameParams(w, row)) return conflict(payoutRow(host), row.orderId);
    return success((await applyWithdrawal(host, row, w, "payout.adopted")).row);
  }
  const { quote } = answer.value;
  if (!sameParams(quote, row)) return conflict(payoutRow(host), row.orderId);
  const next: PayoutRow = {
    ...row,
    quote,
    quotes: row.quotes + 1,
    updatedAt: new Date().toISOString(),
  };
  return success(
    await savePayout(
      host,
      next,
      row,
      "payout.requoted",
      `quote expired; new quote ${quote.quoteId}`,
    ),
  );
}
