/**
 * @module
 * A verified `deposit.statusChanged` delivery → the top-up object it belongs to. The deposit's
 * orderId is `<prefix>-<topUpId>` (no attempt suffix: a top-up has one deposit), so the object
 * is `checkoutIdFor("deposit", topUpId)`. The delivery's whole deposit, when it carries one, is
 * applied as a read (`record.ts`); otherwise the object re-reads the deposit.
 */
import type { Context } from "hono";
import type { Delivery } from "../../core/converge/delivery.ts";
import { depositStub } from "../../deposit/deposit-stub.ts";
import { checkoutIdFor } from "../../lib/ids/checkout-id.ts";
import { depositTopUpId } from "../../lib/ids/upstream-order-id.ts";
import { check } from "../../lib/schema.ts";
import type { AppEnv } from "../http/types.ts";
import { appliedAnswer, missingFacts, notOurs } from "./answers.ts";
import { depositRef } from "./payload.ts";
import { depositRecord, signedDelivery } from "./record.ts";

/**
 * Routes one verified delivery; answers 200 (applied or duplicate), 202 (not ours, including a
 * deposit without orderId or with one we did not make), 422 (no id) or 503 (the service could
 * not confirm: it should retry).
 *
 * @example
 * if (event === "deposit.statusChanged") return handleDepositWebhook(c, data, stamp);
 */
export async function handleDepositWebhook(
  c: Context<AppEnv>,
  data: Record<string, unknown>,
  stamp: Pick<Delivery, "key" | "sentAt">,
): Promise<Response> {
  const { config } = c.var;
  const ref = check(depositRef, data);
  if (!ref.success) return missingFacts("deposit", ref.issues[0]?.path);
  const orderId = ref.data.orderId ?? null;
  const topUpId = orderId ? depositTopUpId(config.ORDER_ID_PREFIX, orderId) : null;
  if (topUpId) {
    const id = await checkoutIdFor("deposit", topUpId, config.CHECKOUT_SIGNING_SECRET);
    const delivery = signedDelivery(ref.data.id, stamp, data, depositRecord);
    const outcome = await depositStub(c.env, id).applyDepositWebhook(delivery);
    const answer = appliedAnswer(c, "deposit", outcome);
    if (answer) return answer;
  }
  return notOurs(c, "deposit", orderId);
}
