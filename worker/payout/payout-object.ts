/**
 * @module
 * `PayoutObject`: the Durable Object that owns one withdrawal order of the merchant (named
 * `payout:<orderId>`): its quote, its one commit, and the withdrawal's status afterwards.
 *
 * Invariants:
 * - every upstream call of this object runs one at a time in its lane (`core/converge/lane.ts`), so
 *   20 concurrent commits make one `POST /withdrawal/commit` and the rest read the stored
 *   withdrawal;
 * - a commit whose answer is lost, garbled or a 5xx leaves the payout `uncertain`, never
 *   failed: the withdrawal is read back by orderId (before any further commit, and by the
 *   alarm) and adopted, or the payout returns to `quoted` when the service has none;
 * - withdrawal reads, and the withdrawals webhooks carry, are admitted against the
 *   withdrawal's known facts (an older one changes nothing; `core/converge/delivery.ts`),
 *   and the alarm reads the withdrawal until it is final, so a lost webhook still converges;
 * - the same orderId always carries the same parameters (409 `checkout_conflict` otherwise),
 *   and is the only orderId sent upstream, so the service collapses every quote to one and
 *   backs at most one withdrawal with it;
 * - a quote that expired (by its `expiresAt`, or because the service refuses it: any 4xx to a
 *   commit but insufficient balance, see `refusesQuote`) is re-quoted once with the same
 *   orderId before committing; if the service
 *   answers that the orderId is already committed (an earlier commit's answer was lost), the
 *   existing withdrawal is read back and adopted, never paid again;
 * - a refused commit (insufficient balance) records nothing as committed;
 * - a refund's withdrawal (its commit and every later status) is reported to its order before
 *   the call returns, so the order's refund bookkeeping never lags the payout; a webhook whose
 *   report failed is answered 503 and not remembered, so the service's redelivery reports again.
 */

import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import type { CoreEnv } from "../core/config/core-env.ts";
import { MERCHANT_CALL, upstreamFor } from "../core/config/upstream.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import { type Facts, isOlder } from "../core/converge/facts.ts";
import { admitRead, type Followed, forgetFollowed, knownFacts } from "../core/converge/followed.ts";
import { RECONCILE_READ } from "../core/converge/reconcile.ts";
import { HostedDurableObject } from "../core/events/hosted-durable-object.ts";
import { type HostedObject, ObjectHost, type ObjectSchema } from "../core/events/object-host.ts";
import type { ListedRecord } from "../core/reconciler/reconciler-rpc.ts";
import { webhookUrl } from "../lib/ids/webhook-url.ts";
import { cmp } from "../lib/money/decimal.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { OrdersBinding } from "../order/order-rpc.ts";
import { UpstreamError } from "../service/errors.ts";
import type { Withdrawal, WithdrawalQuote } from "../service/types.ts";
import { isUncertainFailure, upstreamFailure } from "../service/upstream-failure.ts";
import type { PayoutRpc } from "./payout-rpc.ts";
import { reportRefund } from "./refunds/report.ts";
import { acceptsPayoutStatus, FINAL_PAYOUT } from "./status.ts";
import {
  PAYOUT_SCHEMA,
  type PayoutRequest,
  type PayoutRow,
  readPayout,
  writePayout,
} from "./store.ts";
import { payoutNotification, payoutView } from "./view.ts";

/** A quote this close to its expiry is re-quoted before a commit (clock skew, latency). */
const EXPIRY_MARGIN_MS = 3_000;

const reasonOf = (error: unknown) =>
  error instanceof UpstreamError && error.kind === "http"
    ? (error.code ?? "").split(".").pop()
    : undefined;

/**
 * True when a commit was refused because of its quote, so that a fresh quote (same orderId)
 * can succeed. The service publishes no code for an expired quote (SDK 1.5.0 says only that
 * after `expiresAt` a quote "can no longer be committed. Re-issue a new quote if expired"; its
 * published withdrawal codes name `notFound`, `malformedQuote`, `quoteKindMismatch`,
 * `quoteDecisionMissing`…), so this branches on the answer's shape, not on a code: a definite
 * 4xx to a commit (whose only input is the quote) is about the quote, except insufficient
 * balance (the quote is fine, the balance is not: re-quoting would not help) and the answers
 * about the caller (401, 403, 408, 429). Re-quoting is always safe: the orderId backs at most one
 * withdrawal, and a re-quote after a commit is answered 409 and adopts it.
 */
function refusesQuote(error: unknown): boolean {
  if (!(error instanceof UpstreamError) || error.kind !== "http") return false;
  const status = error.status ?? 0;
  if (status < 400 || status > 499 || [401, 403, 408, 429].includes(status)) return false;
  return reasonOf(error) !== "insufficientBalance";
}

/** True when an upstream object describes exactly the payout that was asked for. */
function sameParams(
  a: { cryptoCurrencyCode: string; address: string; amount: string },
  b: { cryptoCurrencyCode: string; address: string; amount: string },
): boolean {
  return (
    a.cryptoCurrencyCode === b.cryptoCurrencyCode &&
    a.address === b.address &&
    cmp(a.amount, b.amount) === 0
  );
}

type QuoteAnswer = { quote: WithdrawalQuote } | { committed: Withdrawal };

/** The followed target of an uncertain commit: the withdrawal is known only by its orderId. */
const byOrderId = (orderId: string): Followed => ({ kind: "withdrawal", id: `order:${orderId}` });

/** The progress facts of a withdrawal read (`core/converge/facts.ts`). */
const withdrawalFacts = (w: Withdrawal): Facts => ({ status: w.status, received: "0" });

/** What a payout reaches: the core, and the order it reports a refund to. */
type PayoutEnv = CoreEnv & OrdersBinding;

/** The payout's schema: its table, the marker that says it exists, how it is named. */
const PAYOUT_OBJECT: ObjectSchema = {
  ddl: PAYOUT_SCHEMA,
  marker: "payout_info",
  notifier: "payout",
  namespace: "PAYOUTS",
};

export class PayoutObject extends HostedDurableObject<PayoutEnv> implements PayoutRpc {
  /** The capabilities and the one alarm (`core/events/object-host.ts`); nobody watches a payout. */
  readonly host: ObjectHost<PayoutEnv> = new ObjectHost(this.ctx, () => this.env, PAYOUT_OBJECT, {
    watched: () => false,
    readFollowed: (target) => this.#readFollowed(target),
    applyListed: (listed) => this.#applyListed(listed),
  } satisfies HostedObject);

  #row(): PayoutRow | null {
    return this.host.hasSchema ? readPayout(this.ctx.storage.sql) : null;
  }

  /** Reports a committed refund to its order; false (and logged) when the order did not answer. */
  async #reportRefund(row: PayoutRow): Promise<boolean> {
    try {
      const answer = await reportRefund(
        this.env,
        this.host.config().CHECKOUT_SIGNING_SECRET,
        payoutView(row),
      );
      return answer === null || answer.ok;
    } catch (error) {
      this.host.logger().warn("payout.refund_report_failed", {
        orderId: row.orderId,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  /**
   * Writes the row, its event and (on a status change) the merchant notification, atomically,
   * through the one apply sequence; wakes the alarm now when a notification was queued
   * (awaited: the caller answers only after).
   *
   * Invariant: `follow`, when given, records the withdrawal's read (or the uncertain commit's
   * follow) in that same transaction, once: a read recorded twice would count as a second,
   * unchanged read and double the gap to the next one (`core/converge/followed.ts` `admitRead`).
   * Only then is the alarm armed: a save that follows nothing has no read to schedule.
   */
  async #save(
    next: PayoutRow,
    previous: PayoutRow | null,
    type: string,
    message: string,
    follow?: () => void,
  ): Promise<PayoutRow> {
    const now = new Date().toISOString();
    const sql = this.ctx.storage.sql;
    await this.host.applyChange(
      {
        stale: false,
        record: follow ?? (() => {}),
        write: () => {
          writePayout(sql, next);
          const moved = previous !== null && previous.status !== next.status;
          return moved ? [payoutNotification(next, previous.status, now)] : [];
        },
        append: () =>
          this.host.log.append(type, message, () => JSON.stringify(payoutView(next)), now),
        arm: follow !== undefined,
      },
      // Nobody watches a payout live: its events are the merchant's log.
      () => {},
    );
    this.host.logger().debug(type, { orderId: next.orderId, status: next.status });
    return next;
  }

  #conflict(orderId: string): Outcome<never> {
    const row = this.#row();
    const what = row
      ? `${row.amount} ${row.cryptoCurrencyCode} to ${row.address}`
      : "other details";
    const hint =
      row?.kind === "refund" ? "an order has one refund." : "use a new orderId for another payout.";
    return failure(
      409,
      "checkout_conflict",
      `${orderId} was already requested as ${what}; ${hint}`,
    );
  }

  /** Quotes the payout, or returns the existing one for this orderId (201 only when new). */
  quote(req: PayoutRequest): Promise<Outcome<{ created: boolean; view: PayoutView }>> {
    return this.host.lane.run(async () => {
      if (!this.host.hasSchema) this.host.ensureSchema();
      const row = this.#row();
      if (row) {
        if (!sameParams(row, req) || row.kind !== req.kind) return this.#conflict(req.orderId);
        if (row.status === "quoted" && this.#expired(row.quote)) {
          const fresh = await this.#requote(row);
          if (!fresh.ok) return fresh;
          return success({ created: false, view: payoutView(fresh.value) });
        }
        return success({ created: false, view: payoutView(row) });
      }
      const answer = await this.#upstreamQuote(req);
      if (!answer.ok) return answer;
      if ("committed" in answer.value || !sameParams(answer.value.quote, req)) {
        // The service already knows this orderId with a commit or other details we never stored.
        return this.#conflict(req.orderId);
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
      await this.#save(
        created,
        null,
        "payout.quoted",
        `quote ${quote.quoteId}: ${quote.totalDeduction} ${quote.cryptoCurrencyCode} to debit`,
      );
      return success({ created: true, view: payoutView(created) });
    });
  }

  /** The payout, or 404. */
  async view(): Promise<Outcome<PayoutView>> {
    const row = this.#row();
    return row ? success(payoutView(row)) : failure(404, "not_found", "No such payout.");
  }

  /** Commits the quote once; repeated calls return the same withdrawal. */
  commit(): Promise<Outcome<PayoutView>> {
    return this.host.lane.run(async () => {
      let row = this.#row();
      if (!row)
        return failure(404, "not_found", "No such payout; quote it first with POST /v1/payouts.");
      if (row.withdrawal) return success(payoutView(row));
      if (row.status === "uncertain") {
        // An earlier commit may have made the withdrawal: read it back before sending another.
        const resolved = await this.#resolveUncertain(row, "merchant");
        if (!resolved.ok) return resolved;
        row = resolved.value;
        if (row.withdrawal) return success(payoutView(row));
      }
      for (let round = 1; ; round++) {
        if (this.#expired(row.quote)) {
          const fresh = await this.#requote(row);
          if (!fresh.ok) return fresh;
          row = fresh.value;
          if (row.withdrawal) return success(payoutView(row));
        }
        // Only the first round may re-quote: a second refusal is answered as it is.
        const result = await this.#upstreamCommit(row, round === 1);
        if (result === "quote_refused") {
          // The service no longer commits this quote (expired by its clock, or forgotten):
          // re-quote once (same orderId), then commit.
          row = { ...row, quote: { ...row.quote, expiresAt: new Date(0).toISOString() } };
          continue;
        }
        if (!result.ok) return result;
        const committed = await this.#committed(row, result.value, "payout.committed");
        await this.#reportRefund(committed);
        return success(payoutView(committed));
      }
    });
  }

  #expired(quote: WithdrawalQuote): boolean {
    return Date.parse(quote.expiresAt) <= Date.now() + EXPIRY_MARGIN_MS;
  }

  async #upstreamQuote(req: PayoutRequest): Promise<Outcome<QuoteAnswer>> {
    // A payout or a refund is the merchant's: the budget's first lane.
    const client = upstreamFor(this.host.config(), MERCHANT_CALL);
    const { orderId, cryptoCurrencyCode, address, amount } = req;
    try {
      return success({
        quote: await client.quoteWithdrawal({ orderId, cryptoCurrencyCode, address, amount }),
      });
    } catch (error) {
      if (reasonOf(error) !== "orderIdAlreadyExists")
        return upstreamFailure(error, this.host.logger());
      try {
        return success({ committed: await client.getWithdrawal({ orderId }) });
      } catch (readError) {
        return upstreamFailure(readError, this.host.logger());
      }
    }
  }

  /** A fresh quote for the same orderId and parameters; adopts a withdrawal that already exists. */
  async #requote(row: PayoutRow): Promise<Outcome<PayoutRow>> {
    const answer = await this.#upstreamQuote(row);
    if (!answer.ok) return answer;
    if ("committed" in answer.value) {
      const w = answer.value.committed;
      if (!sameParams(w, row)) return this.#conflict(row.orderId);
      const adopted = await this.#committed(row, w, "payout.adopted");
      await this.#reportRefund(adopted);
      return success(adopted);
    }
    const { quote } = answer.value;
    if (!sameParams(quote, row)) return this.#conflict(row.orderId);
    const next: PayoutRow = {
      ...row,
      quote,
      quotes: row.quotes + 1,
      updatedAt: new Date().toISOString(),
    };
    return success(
      await this.#save(next, row, "payout.requoted", `quote expired; new quote ${quote.quoteId}`),
    );
  }

  /**
   * One commit of the current quote; `"quote_refused"` when the service refuses the quote itself
   * and `mayRequote` (see `refusesQuote`).
   */
  async #upstreamCommit(
    row: PayoutRow,
    mayRequote: boolean,
  ): Promise<Outcome<Withdrawal> | "quote_refused"> {
    const config = this.host.config();
    try {
      return success(
        await upstreamFor(config, MERCHANT_CALL).commitWithdrawal({
          quoteId: row.quote.quoteId,
          webhookUrl: webhookUrl(config.PUBLIC_BASE_URL),
          customData: { orderId: row.orderId, kind: row.kind },
        }),
      );
    } catch (error) {
      const mapped = upstreamFailure(error, this.host.logger());
      // First: an answer after an attempt that may have committed (a lost answer, then a 429 or
      // "quote expired" / "insufficient balance" caused by that very commit) is uncertain too.
      if (isUncertainFailure(error)) {
        // The service may have made the withdrawal: uncertain, never failed, until read back.
        await this.#save(
          { ...row, status: "uncertain", updatedAt: new Date().toISOString() },
          row,
          "payout.uncertain",
          `commit not confirmed (${mapped.ok ? "?" : mapped.code}); reading the withdrawal back by orderId`,
          () => this.#follow(byOrderId(row.orderId), { status: "created", received: "0" }, true),
        );
        return failure(
          503,
          "service_busy",
          "The payment service did not confirm the commit; the payout is uncertain until the withdrawal is read back. Commit again (the same orderId never pays twice) or read the payout later.",
        );
      }
      if (mayRequote && refusesQuote(error)) return "quote_refused";
      const reason = reasonOf(error);
      if (reason === "insufficientBalance") {
        const { totalDeduction, fee } = row.quote;
        const message = `The merchant's ${row.cryptoCurrencyCode} balance is too low for this payout: it needs ${totalDeduction} ${row.cryptoCurrencyCode} (amount ${row.amount} + network fee ${fee.feeInCryptoCurrencyCode}). Nothing was sent; top up the balance and commit again.`;
        await this.#save(
          { ...row, updatedAt: new Date().toISOString() },
          row,
          "payout.refused",
          "commit refused: insufficient balance",
        );
        return failure(409, "insufficient_balance", message);
      }
      await this.#save(
        { ...row, updatedAt: new Date().toISOString() },
        row,
        "payout.commit_failed",
        `commit refused (${mapped.ok ? "?" : mapped.code}); safe to retry`,
      );
      return mapped;
    }
  }

  /**
   * Starts or updates the follow of a withdrawal (or of the uncertain commit's orderId);
   * `record`, the withdrawal read, is fingerprinted so the reconciler hands it back no more.
   */
  #follow(
    target: Followed,
    facts: Facts,
    follow: boolean,
    record?: Withdrawal,
  ): { older: boolean } {
    const plan = { now: Date.now(), follow, keepUntil: null, watched: false };
    return admitRead(this.ctx.storage.sql, target.kind, target.id, facts, plan, record);
  }

  /**
   * Reads the withdrawal of an uncertain commit by orderId: adopts it when the service has
   * one, else returns the payout to `quoted` (the commit never happened; committing again is safe).
   * `priority`: the merchant's repeated commit waits on it (its own lane) and gets an outcome;
   * the alarm does not, and gets the upstream error thrown.
   */
  async #resolveUncertain(
    row: PayoutRow,
    priority: "merchant" | "reconcile" = "reconcile",
  ): Promise<Outcome<PayoutRow>> {
    let w: Withdrawal;
    try {
      w = await upstreamFor(this.host.config(), { ...RECONCILE_READ, priority }).getWithdrawal({
        orderId: row.orderId,
      });
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404) {
        forgetFollowed(this.ctx.storage.sql, byOrderId(row.orderId));
        return success(
          await this.#save(
            { ...row, status: "quoted", updatedAt: new Date().toISOString() },
            row,
            "payout.not_committed",
            "the service has no withdrawal for this orderId: the commit never happened",
          ),
        );
      }
      // The alarm's read fails with the upstream error itself, so the budget's refusal is
      // deferred and a failure backs off (`core/converge/reconcile.ts` `readOne`).
      if (priority === "reconcile") throw error;
      return upstreamFailure(error, this.host.logger());
    }
    if (!sameParams(w, row)) return this.#conflict(row.orderId);
    forgetFollowed(this.ctx.storage.sql, byOrderId(row.orderId));
    const adopted = await this.#committed(row, w, "payout.adopted");
    await this.#reportRefund(adopted);
    return success(adopted);
  }

  /** Reconciliation (alarm, in the lane): an uncertain commit, or a withdrawal not yet final. */
  async #readFollowed(target: Followed): Promise<void> {
    const row = this.#row();
    if (!row || target.kind !== "withdrawal") return forgetFollowed(this.ctx.storage.sql, target);
    if (target.id.startsWith("order:")) {
      if (row.status !== "uncertain") return forgetFollowed(this.ctx.storage.sql, target);
      const resolved = await this.#resolveUncertain(row);
      if (!resolved.ok) throw new Error(resolved.message);
      return;
    }
    if (!row.withdrawal || row.withdrawal.id !== target.id)
      return forgetFollowed(this.ctx.storage.sql, target);
    const w = await upstreamFor(this.host.config(), RECONCILE_READ).getWithdrawal({
      id: target.id,
    });
    await this.#applyRead(row, w);
  }

  /** A listed withdrawal from the reconciler, applied as a read (inside the lane). */
  async #applyListed(listed: ListedRecord): Promise<void> {
    const row = this.#row();
    if (listed.kind !== "withdrawal" || !row || row.withdrawal?.id !== listed.record.id) return;
    await this.#applyRead(row, listed.record);
  }

  /** A reconciliation read of the payout's withdrawal (single `GET` or list page). */
  async #applyRead(row: PayoutRow, w: Withdrawal): Promise<void> {
    // A refund's order that did not hear of it is told on a later read: failing the read keeps
    // the withdrawal scheduled (with backoff), even once final, until the report lands.
    if (!(await this.#applyWithdrawal(row, w, "payout.read")))
      throw new Error("the refund's order did not record its withdrawal; read again");
  }

  /**
   * Applies a read withdrawal under the monotonic rules (an older read changes nothing) and
   * reports a refund's status to its order; false when that report failed.
   */
  async #applyWithdrawal(row: PayoutRow, w: Withdrawal, type: string): Promise<boolean> {
    const known = knownFacts(this.ctx.storage.sql, "withdrawal", w.id);
    const older = known !== null && isOlder("withdrawal", withdrawalFacts(w), known);
    const applies = !older && (!row.withdrawal || acceptsPayoutStatus(row.status, w.status));
    // The read is recorded once: with the row it changes (`#committed`), or alone (an older
    // read, or one the payout's status does not accept, only reschedules the next read).
    if (!applies) {
      this.#followWithdrawal(w, row.status);
      await this.host.arm();
    }
    return this.#reportRefund(applies ? await this.#committed(row, w, type) : row);
  }

  /** Stores a committed withdrawal (status never moves backward). */
  #committed(row: PayoutRow, w: Withdrawal, type: string): Promise<PayoutRow> {
    const status = acceptsPayoutStatus(row.status, w.status) ? w.status : row.status;
    const next: PayoutRow = { ...row, status, withdrawal: w, updatedAt: new Date().toISOString() };
    return this.#save(
      next,
      row,
      type,
      `withdrawal ${w.id} is ${w.status}; debited ${w.debitedAmount ?? "?"}`,
      // Followed from now on (until final), so a lost webhook still converges.
      () => this.#followWithdrawal(w, status),
    );
  }

  /** Records a read of the withdrawal; reading stops once the payout's `status` is final. */
  #followWithdrawal(w: Withdrawal, status: PayoutRow["status"]): void {
    this.#follow(
      { kind: "withdrawal", id: w.id },
      withdrawalFacts(w),
      !FINAL_PAYOUT.has(status),
      w,
    );
  }

  /**
   * Handles a verified `withdrawal.statusChanged`: its signed withdrawal (or, when it carries
   * none whole, a read of it) is checked against the payout, applied under the monotonic rules
   * and reported to a refund's order; 2xx only when all of that happened, as
   * `Lane.webhook` rules (`core/events/lane-capability.ts`).
   */
  applyWithdrawalWebhook(delivery: Delivery<Withdrawal>): Promise<DeliveryOutcome> {
    const apply = async (w: Withdrawal): Promise<DeliveryOutcome | undefined> => {
      const row = this.#row()!;
      if (w.orderId !== row.orderId || !sameParams(w, row)) {
        this.host.logger().warn("payout.webhook_mismatch", { orderId: row.orderId });
        return success({ known: false, duplicate: false });
      }
      if (row.status === "uncertain") forgetFollowed(this.ctx.storage.sql, byOrderId(row.orderId));
      if (await this.#applyWithdrawal(row, w, "payout.status")) return undefined;
      return failure(503, "service_busy", "The refund's order did not answer; redeliver later.");
    };
    return this.host.lane.webhook("withdrawal", delivery, {
      owns: () => {
        const row = this.#row();
        return row !== null && (!row.withdrawal || row.withdrawal.id === delivery.id);
      },
      admit: apply,
      refetch: async (client) => apply(await client.getWithdrawal({ id: delivery.id })),
    });
  }
}
