/**
 * @module
 * A verified `withdrawal.statusChanged` delivery → the payout object of its orderId
 * (`payout:<orderId>`), which applies the delivery's whole withdrawal as a read (`record.ts`),
 * or re-reads the withdrawal when the delivery carries none.
 */
import type { Context } from "hono";
import type { Delivery } from "../../core/converge/delivery.ts";
import { check } from "../../lib/schema.ts";
import { payoutStub } from "../../payout/payout-stub.ts";
import type { AppEnv } from "../http/types.ts";
import { appliedAnswer, missingFacts, notOurs } from "./answers.ts";
import { objectRef } from "./payload.ts";
import { signedDelivery, withdrawalRecord } from "./record.ts";

/**
 * Routes one verified delivery; answers 200 (applied or duplicate), 202 (not ours), 422
 * (no id/orderId) or 503 (the service could not confirm: it should retry).
 *
 * @example
 * if (event === "withdrawal.statusChanged") return handleWithdrawalWebhook(c, data, stamp);
 */
export async function handleWithdrawalWebhook(
  c: Context<AppEnv>,
  data: Record<string, unknown>,
  stamp: Pick<Delivery, "key" | "sentAt">,
): Promise<Response> {
  const ref = check(objectRef, data);
  if (!ref.success) return missingFacts("withdrawal", ref.issues[0]?.path);
  const delivery = signedDelivery(ref.data.id, stamp, data, withdrawalRecord);
  const outcome = await payoutStub(c.env, ref.data.orderId).applyWithdrawalWebhook(delivery);
  return appliedAnswer(c, "withdrawal", outcome) ?? notOurs(c, "withdrawal", ref.data.orderId);
}
