/**
 * @module
 * `PayoutObject`: the Durable Object that owns one withdrawal order of the merchant (named
 * `payout:<orderId>`): its quote, its one commit, and the withdrawal's status afterwards. A thin
 * shell, built like the order and the top-up: it wires its `ObjectHost` into one narrow face
 * (`PayoutHost`, `payout-host.ts`) and delegates each RPC method to a step of its own module:
 * quotes (`quote-steps.ts`), the commit (`commit-steps.ts`), the uncertain commit's read-back
 * (`resolve-uncertain.ts`), withdrawal reads and webhooks (`read-withdrawal.ts`, `apply-read.ts`
 * over the pure `applyWithdrawalRead`, `apply-withdrawal.ts`), each change written through the
 * one apply sequence (`save-payout.ts`).
 *
 * Invariants (each stated where it is kept):
 * - every upstream call of this object runs one at a time in its lane (`core/converge/lane.ts`):
 *   the methods here enter it once, the steps never do; so 20 concurrent commits make one
 *   `POST /withdrawal/commit` and the rest read the stored withdrawal;
 * - a commit whose answer is lost, garbled or a 5xx leaves the payout `uncertain`, never
 *   failed, until the withdrawal is read back by orderId (`resolve-uncertain.ts`);
 * - withdrawal reads, and the withdrawals webhooks carry, are admitted against the
 *   withdrawal's known facts (an older one changes nothing), each recorded once in the
 *   transaction of the change it makes (`apply-withdrawal.ts`), and the alarm reads the
 *   withdrawal until it is final, so a lost webhook still converges (`read-withdrawal.ts`);
 * - the same orderId always carries the same parameters (409 `checkout_conflict` otherwise,
 *   `same-payout.ts`) and is the only orderId sent upstream (`quote-steps.ts`);
 * - a refund's withdrawal (its commit and every later status) is reported to its order before
 *   the call returns (`refunds/report.ts` `reportToOrder`).
 */

import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import { HostedDurableObject } from "../core/events/hosted-durable-object.ts";
import { type HostedObject, ObjectHost, type ObjectSchema } from "../core/events/object-host.ts";
import { failure, type Outcome, success } from "../lib/outcome/outcome.ts";
import type { Withdrawal } from "../service/types.ts";
import { commitOnce } from "./commit-steps.ts";
import { type PayoutEnv, type PayoutHost, payoutRow } from "./payout-host.ts";
import type { PayoutRpc } from "./payout-rpc.ts";
import { quoteOnce } from "./quote-steps.ts";
import {
  applyListedWithdrawal,
  readFollowedWithdrawal,
  withdrawalWebhook,
} from "./read-withdrawal.ts";
import { PAYOUT_SCHEMA, type PayoutRequest } from "./store.ts";
import { payoutView } from "./view.ts";

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
    readFollowed: (target) => readFollowedWithdrawal(this.#payout, target),
    applyListed: (listed) => applyListedWithdrawal(this.#payout, listed),
  } satisfies HostedObject);
  /** The face every step of the payout sees (`payout-host.ts`). */
  readonly #payout: PayoutHost;

  constructor(ctx: DurableObjectState, env: PayoutEnv) {
    super(ctx, env);
    const { host } = this;
    this.#payout = {
      // Read when used: the host's bindings are the object's (tests swap them).
      get env() {
        return host.env;
      },
      sql: ctx.storage.sql,
      log: host.log,
      config: () => host.config(),
      logger: () => host.logger(),
      hasSchema: () => host.hasSchema,
      ensureSchema: () => host.ensureSchema(),
      applyChange: (change, publish) => host.applyChange(change, publish),
    };
  }

  /** Quotes the payout, or returns the existing one for this orderId (201 only when new). */
  quote(req: PayoutRequest): Promise<Outcome<{ created: boolean; view: PayoutView }>> {
    return this.host.lane.run(() => quoteOnce(this.#payout, req));
  }

  /** The payout, or 404. */
  async view(): Promise<Outcome<PayoutView>> {
    const row = payoutRow(this.#payout);
    return row ? success(payoutView(row)) : failure(404, "not_found", "No such payout.");
  }

  /** Commits the quote once; repeated calls return the same withdrawal (`commit-steps.ts`). */
  commit(): Promise<Outcome<PayoutView>> {
    return this.host.lane.run(() => commitOnce(this.#payout));
  }

  /**
   * Handles a verified `withdrawal.statusChanged` (`read-withdrawal.ts`); 2xx only as
   * `Lane.webhook` rules (`core/events/lane-capability.ts`).
   */
  applyWithdrawalWebhook(delivery: Delivery<Withdrawal>): Promise<DeliveryOutcome> {
    return this.host.lane.webhook(
      "withdrawal",
      delivery,
      withdrawalWebhook(this.#payout, delivery),
    );
  }
}
