/**
 * @module
 * A verified `deposit.statusChanged` delivery → the top-up object it belongs to. The deposit's
 * orderId is `<prefix>-<topUpId>` (no attempt suffix: a top-up has one deposit), so the object
 * is `checkoutIdFor("deposit", topUpId)`. The object re-reads the deposit before changing.
 */
import type { Context } from "hono";
import * as z from "zod/mini";
import { checkoutIdFor } from "../checkout/checkout-id.ts";
import { errorResponse } from "../http/api-error.ts";
import type { AppEnv } from "../http/types.ts";

const depositRef = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  orderId: z.string().check(z.minLength(1), z.maxLength(256)),
});

/**
 * Routes one verified delivery; answers 200 (applied or duplicate), 202 (not ours), 422
 * (no id/orderId) or 503 (the service could not confirm: it should retry).
 *
 * @example
 * if (event === "deposit.statusChanged") return handleDepositWebhook(c, data, key);
 */
export async function handleDepositWebhook(
  c: Context<AppEnv>,
  data: Record<string, unknown>,
  key: string,
): Promise<Response> {
  const { config, log } = c.var;
  const ref = depositRef.safeParse(data);
  if (!ref.success) {
    return errorResponse(
      422,
      "schema_invalid",
      `The deposit in the webhook lacks ${ref.error.issues[0]?.path.join(".") || "fields"}.`,
    );
  }
  const prefix = `${config.ORDER_ID_PREFIX}-`;
  const topUpId = ref.data.orderId.startsWith(prefix) ? ref.data.orderId.slice(prefix.length) : "";
  if (topUpId) {
    const id = await checkoutIdFor("deposit", topUpId, config.CHECKOUT_SIGNING_SECRET);
    const outcome = await c.env.DEPOSITS.get(c.env.DEPOSITS.idFromName(id)).applyDepositWebhook(
      ref.data.id,
      key,
    );
    if (!outcome.ok) {
      return errorResponse(
        503,
        "service_busy",
        "Could not confirm the deposit with the payment service; retry later.",
      );
    }
    if (outcome.value.known) return c.json({ received: true, duplicate: outcome.value.duplicate });
  }
  log.warn("webhook.unknown_deposit", { orderId: ref.data.orderId });
  return c.json({ received: true, ignored: "unknown deposit" }, 202);
}
