/**
 * @module
 * A verified `x402.payment.settled` / `x402.payment.failed` delivery → the order whose x402
 * payment has the settlement's transaction (the account's `x402_routes`, written by the order
 * when the facilitator named the transaction). The settlement is applied as a fact of that
 * payment (`order/x402/`): a duplicated, late or reordered delivery changes nothing.
 *
 * Answers: 200 applied (or known); 202 not ours (another wallet, no transaction, or a route
 * that never came); 503 while the route may still come (the order writes it right after the
 * settle's answer, which a fast webhook can overtake); 422 a settlement of the wrong shape.
 */
import type { Context } from "hono";
import { accountKey } from "../../core/account/account-key.ts";
import { x402Settings } from "../../core/config/x402-settings.ts";
import { accountStub } from "../../core/objects/stubs.ts";
import { errorResponse } from "../../lib/api-error.ts";
import { check } from "../../lib/schema.ts";
import { orderStub } from "../../order/order-stub.ts";
import { settlementSchema } from "../../service/facilitator.ts";
import type { AppEnv } from "../http/types.ts";

/** How long after a settlement's creation a missing route may still come. */
export const ROUTE_GRACE_MS = 15 * 60_000;

/** The x402 events. */
export const X402_EVENTS = new Set(["x402.payment.settled", "x402.payment.failed"]);

/**
 * Routes one verified x402 delivery.
 *
 * @example
 * if (X402_EVENTS.has(event)) return handleX402Webhook(c, data);
 */
export async function handleX402Webhook(
  c: Context<AppEnv>,
  data: Record<string, unknown>,
): Promise<Response> {
  const { config, log } = c.var;
  const parsed = check(settlementSchema, data);
  if (!parsed.success) {
    const path = parsed.issues[0]?.path.join(".") || "fields";
    return errorResponse(
      422,
      "schema_invalid",
      `The x402 settlement in the webhook lacks ${path}.`,
    );
  }
  const settlement = parsed.data;
  const ignored = (why: string) => {
    log.warn("webhook.x402_ignored", { why, id: settlement.id });
    return c.json({ received: true, ignored: why }, 202);
  };
  const settings = x402Settings(config);
  if (!settings || settlement.payTo.toLowerCase() !== settings.payTo.toLowerCase()) {
    return ignored("another wallet");
  }
  if (!settlement.transaction) return ignored("no transaction");
  const checkoutId = await accountStub(c.env, accountKey(config)).x402Route(settlement.transaction);
  if (!checkoutId) {
    const age = Date.now() - Date.parse(settlement.createdAt);
    if (!(age > ROUTE_GRACE_MS)) {
      return errorResponse(
        503,
        "service_busy",
        "This settlement's order is not known yet; retry later.",
      );
    }
    return ignored("unknown transaction");
  }
  const { known } = await orderStub(c.env, checkoutId).applyX402Settlement(settlement);
  if (!known) return ignored("not this order's payment");
  return c.json({ received: true });
}
