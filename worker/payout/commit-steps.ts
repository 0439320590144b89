/**
 * @module
 * The payout's commit step: its quote committed once, re-quoted first when expired or refused
 * for itself, an uncertain commit read back before another is sent. A function of the payout's
 * face (`payout-host.ts`), run inside its lane, so 20 concurrent commits make one
 * `POST /withdrawal/commit` and the rest read the stored withdrawal.
 *
 * Invariants:
 * - a commit whose answer is lost, garbled or a 5xx leaves the payout `uncertain`, never
 *   failed, followed by orderId (`follow.ts`) until read back (`resolve-uncertain.ts`);
 * - a quote that expired (by its `expiresAt`, or because the service refuses it:
 *   `refusal.ts` `refusesQuote`) is re-quoted once with the same orderId before committing;
 * - a refused commit (insufficient balance) records nothing as committed;
 * - a refund's withdrawal is reported to its order before the step returns.
 */

import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import { MERCHANT_CALL, upstreamFor } from "../core/config/upstream.ts";
import { webhookUrl } from "../lib/ids/webhook-url.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { Withdrawal } from "../service/types.ts";
import { isUncertainFailure, upstreamFailure } from "../service/upstream-failure.ts";
import { applyWithdrawal } from "./apply-read.ts";
import { followUncertain } from "./follow.ts";
import { type PayoutHost, payoutRow } from "./payout-host.ts";
import { expired, requote } from "./quote-steps.ts";
import { reasonOf, refusesQuote } from "./refusal.ts";
import { resolveUncertain } from "./resolve-uncertain.ts";
import { savePayout } from "./save-payout.ts";
import type { PayoutRow } from "./store.ts";
import { payoutView } from "./view.ts";

/**
 * Commits the quote once; repeated calls answer the same withdrawal. In the lane.
 *
 * @example
 * return this.host.lane.run(() => commitOnce(this.#payout));
 */
export async function commitOnce(host: PayoutHost): Promise<Outcome<PayoutView>> {
  let row = payoutRow(host);
  if (!row)
    return failure(404, "not_found", "No such payout; quote it first with POST /v1/payouts.");
  if (row.withdrawal) return success(payoutView(row));
  if (row.status === "uncertain") {
    // An earlier commit may have made the withdrawal: read it back before sending another.
    const resolved = await resolveUncertain(host, row, "merchant");
    if (!resolved.ok) return resolved;
    row = resolved.value;
    if (row.withdrawal) return success(payoutView(row));
  }
  for (let round = 1; ; round++) {
    if (expired(row.quote)) {
      const fresh = await requote(host, row);
      if (!fresh.ok) return fresh;
      row = fresh.value;
      if (row.withdrawal) return success(payoutView(row));
    }
    // Only the first round may re-quote: a second refusal is answered as it is.
    const result = await upstreamCommit(host, row, round === 1);
    if (result === "quote_refused") {
      // The service no longer commits this quote (expired by its clock, or forgotten):
      // re-quote once (same orderId), then commit.
      row = { ...row, quote: { ...row.quote, expiresAt: new Date(0).toISOString() } };
      continue;
    }
    if (!result.ok) return result;
    const committed = await applyWithdrawal(host, row, result.value, "payout.committed");
    return success(payoutView(committed.row));
  }
}

/**
 * One commit of the current quote; `"quote_refused"` when the service refuses the quote itself
 * and `mayRequote` (see `refusesQuote`).
 */
async function upstreamCommit(
  host: PayoutHost,
  row: PayoutRow,
  mayRequote: boolean,
): Promise<Outcome<Withdrawal> | "quote_refused"> {
  const config = host.config();
  try {
    return success(
      await upstreamFor(config, MERCHANT_CALL).commitWithdrawal({
        quoteId: row.quote.quoteId,
        webhookUrl: webhookUrl(config.PUBLIC_BASE_URL),
        customData: { orderId: row.orderId, kind: row.kind },
      }),
    );
  } catch (error) {
    const mapped = upstreamFailure(error, host.logger());
    // First: an answer after an attempt that may have committed (a lost answer, then a 429 or
    // "quote expired" / "insufficient balance" caused by that very commit) is uncertain too.
    if (isUncertainFailure(error)) {
      // The service may have made the withdrawal: uncertain, never failed, until read back.
      await savePayout(
        host,
        { ...row, status: "uncertain", updatedAt: new Date().toISOString() },
        row,
        "payout.uncertain",
        `commit not confirmed (${mapped.ok ? "?" : mapped.code}); reading the withdrawal back by orderId`,
        () => followUncertain(host.sql, row.orderId),
      );
      return failure(
        503,
        "service_busy",
        "The payment service did not confirm the commit; the payout is uncertain until the withdrawal is read back. Commit again (the same orderId never pays twice) or read the payout later.",
      );
    }
    if (mayRequote && refusesQuote(error)) return "quote_refused";
    if (reasonOf(error) === "insufficientBalance") {
      const { totalDeduction, fee } = row.quote;
      const message = `The merchant's ${row.cryptoCurrencyCode} balance is too low for this payout: it needs ${totalDeduction} ${row.cryptoCurrencyCode} (amount ${row.amount} + network fee ${fee.feeInCryptoCurrencyCode}). Nothing was sent; top up the balance and commit again.`;
      await savePayout(
        host,
        { ...row, updatedAt: new Date().toISOString() },
        row,
        "payout.refused",
        "commit refused: insufficient balance",
      );
      return failure(409, "insufficient_balance", message);
    }
    await savePayout(
      host,
      { ...row, updatedAt: new Date().toISOString() },
      row,
      "payout.commit_failed",
      `commit refused (${mapped.ok ? "?" : mapped.code}); safe to retry`,
    );
    return mapped;
  }
}
