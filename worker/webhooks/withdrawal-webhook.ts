/**
 * @module
 * A verified `withdrawal.statusChanged` delivery → the payout object of its orderId
 * (`payout:<orderId>`), which re-reads the withdrawal before changing anything.
 */
import type { Context } from "hono";
import * as z from "zod/mini";
import { errorResponse } from "../http/api-error.ts";
import type { AppEnv } from "../http/types.ts";
import { payoutStub } from "../payout/stub.ts";

const withdrawalRef = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  orderId: z.string().check(z.minLength(1), z.maxLength(256)),
});

/**
 * Routes one verified delivery; answers 200 (applied or duplicate), 202 (not ours), 422
 * (no id/orderId) or 503 (the service could not confirm: it should retry).
 *
 * @example
 * if (event === "withdrawal.statusChanged") return handleWithdrawalWebhook(c, data, key);
 */
export async function handleWithdrawalWebhook(
  c: Context<AppEnv>,
  data: Record<string, unknown>,
  key: string,
): Promise<Response> {
  const ref = withdrawalRef.safeParse(data);
  if (!ref.success) {
    return errorResponse(
      422,
      "schema_invalid",
      `The withdrawal in the webhook lacks ${ref.error.issues[0]?.path.join(".") || "fields"}.`,
    );
  }
  const outcome = await payoutStub(c.env, ref.data.orderId).applyWithdrawalWebhook(
    ref.data.id,
    key,
  );
  if (!outcome.ok) {
    return errorResponse(
      503,
      "service_busy",
      "Could not confirm the withdrawal with the payment service; retry later.",
    );
  }
  if (outcome.value.known) return c.json({ received: true, duplicate: outcome.value.duplicate });
  c.var.log.warn("webhook.unknown_withdrawal", { orderId: ref.data.orderId });
  return c.json({ received: true, ignored: "unknown withdrawal" }, 202);
}
