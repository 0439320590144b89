/**
 * @module
 * The withdrawal reads the payout did not ask for itself: the alarm's or the reconciler's
 * (`readFollowedWithdrawal`, `applyListedWithdrawal`) and a verified `withdrawal.statusChanged`
 * webhook (`withdrawalWebhook`, handed to `Lane.webhook`). Each is applied by `apply-read.ts`
 * under the monotonic rules, inside the payout's lane.
 *
 * Invariants:
 * - the alarm reads the withdrawal until the payout is final, so a lost webhook still converges;
 * - a refund's order that did not hear of a withdrawal is told on a later read: a failed report
 *   fails the read (read again, with backoff, even once final) or answers the webhook 503 (not
 *   remembered, so the service's redelivery reports again);
 * - a webhook's withdrawal that is not this payout's (another orderId or other parameters)
 *   changes nothing.
 */
import { upstreamFor } from "../core/config/upstream.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import { type Followed, forgetFollowed } from "../core/converge/followed.ts";
import { RECONCILE_READ } from "../core/converge/reconcile.ts";
import type { WebhookTarget } from "../core/events/lane-capability.ts";
import type { ListedRecord } from "../core/reconciler/reconciler-rpc.ts";
import { failure, success } from "../lib/outcome/outcome.ts";
import type { Withdrawal } from "../service/types.ts";
import { applyWithdrawal } from "./apply-read.ts";
import { isByOrderId } from "./follow.ts";
import { type PayoutHost, payoutRow } from "./payout-host.ts";
import { resolveUncertain } from "./resolve-uncertain.ts";
import { sameParams } from "./same-payout.ts";
import type { PayoutRow } from "./store.ts";

/** A reconciliation read of the payout's withdrawal (single `GET` or list page). */
async function applyReconcileRead(host: PayoutHost, row: PayoutRow, w: Withdrawal): Promise<void> {
  if (!(await applyWithdrawal(host, row, w, "payout.read")).reported)
    throw new Error("the refund's order did not record its withdrawal; read again");
}

/**
 * Reads a followed target (alarm or reconciler, inside the lane): an uncertain commit by its
 * orderId, or the payout's withdrawal; a target that is neither any more is forgotten.
 *
 * @example
 * readFollowed: (target) => readFollowedWithdrawal(this.#payout, target),
 */
export async function readFollowedWithdrawal(host: PayoutHost, target: Followed): Promise<void> {
  const row = payoutRow(host);
  if (!row || target.kind !== "withdrawal") return forgetFollowed(host.sql, target);
  if (isByOrderId(target)) {
    if (row.status !== "uncertain") return forgetFollowed(host.sql, target);
    const resolved = await resolveUncertain(host, row);
    if (!resolved.ok) throw new Error(resolved.message);
    return;
  }
  if (!row.withdrawal || row.withdrawal.id !== target.id) return forgetFollowed(host.sql, target);
  const w = await upstreamFor(host.config(), RECONCILE_READ).getWithdrawal({ id: target.id });
  await applyReconcileRead(host, row, w);
}

/**
 * Applies a withdrawal the reconciler listed, as a read (inside the lane); anything else is
 * ignored.
 *
 * @example
 * applyListed: (listed) => applyListedWithdrawal(this.#payout, listed),
 */
export async function applyListedWithdrawal(host: PayoutHost, listed: ListedRecord): Promise<void> {
  const row = payoutRow(host);
  if (listed.kind !== "withdrawal" || !row || row.withdrawal?.id !== listed.record.id) return;
  await applyReconcileRead(host, row, listed.record);
}

/**
 * What a verified `withdrawal.statusChanged` is to the payout (`Lane.webhook`): its own when
 * it has no withdrawal yet or this one; its signed withdrawal (or, with none whole, a read of
 * it) checked against the payout, applied and reported to a refund's order; 2xx only when all
 * of that happened.
 *
 * @example
 * return this.host.lane.webhook("withdrawal", delivery, withdrawalWebhook(this.#payout, delivery));
 */
export function withdrawalWebhook(
  host: PayoutHost,
  delivery: Delivery<Withdrawal>,
): WebhookTarget<Withdrawal> {
  const apply = async (w: Withdrawal): Promise<DeliveryOutcome | undefined> => {
    const row = payoutRow(host)!;
    if (w.orderId !== row.orderId || !sameParams(w, row)) {
      host.logger().warn("payout.webhook_mismatch", { orderId: row.orderId });
      return success({ known: false, duplicate: false });
    }
    if ((await applyWithdrawal(host, row, w, "payout.status")).reported) return undefined;
    return failure(503, "service_busy", "The refund's order did not answer; redeliver later.");
  };
  return {
    owns: () => {
      const row = payoutRow(host);
      return row !== null && (!row.withdrawal || row.withdrawal.id === delivery.id);
    },
    admit: apply,
    refetch: async (client) => apply(await client.getWithdrawal({ id: delivery.id })),
  };
}
