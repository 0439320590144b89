/**
 * @module
 * The merchant's payout API (Bearer `MERCHANT_API_TOKEN`, applied by `merchant.ts` to
 * `/v1/payouts*` and `/v1/orders/*`): quote (`POST /v1/payouts`, idempotent per orderId),
 * commit once (`POST /v1/payouts/:orderId/commit`) and view. The order refund goes through the
 * same quote (`payout/quote.ts`) → commit path from `payout/refunds/refund-order.ts`.
 */

import { PAYOUT_ORDER_ID, payoutQuoteBody } from "../../lib/api/schemas/requests.ts";
import { ApiError } from "../../lib/api-error.ts";
import { isRefundOrderId } from "../../lib/ids/upstream-order-id.ts";
import { unwrap } from "../../lib/outcome/outcome.ts";
import { payoutStub } from "../../payout/payout-stub.ts";
import { quotePayout } from "../../payout/quote.ts";
import { readJson } from "../http/json-body.ts";
import { limitBody } from "../http/limits.ts";
import { Hono } from "../http/router.ts";
import type { AppEnv } from "../http/types.ts";

export const payoutRoutes = new Hono<AppEnv>();

payoutRoutes.post("/", limitBody(), async (c) => {
  const body = await readJson(c, payoutQuoteBody);
  if (isRefundOrderId(body.orderId)) {
    // Refund payouts live under these orderIds; a merchant payout there would take one over.
    throw new ApiError(
      400,
      "validation_failed",
      "orderId must not end in -refund or -refund-<n>: those are reserved for order refunds.",
    );
  }
  const at = { env: c.env, config: c.var.config, log: c.var.log };
  const { created, view } = await quotePayout(at, { ...body, kind: "payout", invoiceNumber: null });
  return c.json({ data: view }, created ? 201 : 200, { "cache-control": "no-store" });
});

payoutRoutes.post("/:orderId/commit", async (c) => {
  const orderId = c.req.param("orderId");
  if (!PAYOUT_ORDER_ID.test(orderId)) throw new ApiError(404, "not_found", "No such payout.");
  const view = unwrap(await payoutStub(c.env, orderId).commit());
  return c.json({ data: view }, 200, { "cache-control": "no-store" });
});

payoutRoutes.get("/:orderId", async (c) => {
  const orderId = c.req.param("orderId");
  if (!PAYOUT_ORDER_ID.test(orderId)) throw new ApiError(404, "not_found", "No such payout.");
  const view = unwrap(await payoutStub(c.env, orderId).view());
  return c.json({ data: view }, 200, { "cache-control": "no-store" });
});
