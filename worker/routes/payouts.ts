/**
 * @module
 * The merchant's payout API (Bearer `MERCHANT_API_TOKEN`, applied by `merchant.ts` to
 * `/v1/payouts*` and `/v1/orders/*`): quote (`POST /v1/payouts`, idempotent per orderId),
 * commit once (`POST /v1/payouts/:orderId/commit`) and view. The order refund goes through the
 * same quote (`payout/quote.ts`) → commit path from `refunds/refund-order.ts`.
 */
import { Hono } from "hono";
import * as z from "zod/mini";
import { ApiError } from "../http/api-error.ts";
import { readJson } from "../http/json-body.ts";
import { limitBody } from "../http/limits.ts";
import type { AppEnv } from "../http/types.ts";
import { isRefundOrderId } from "../ids/upstream-order-id.ts";
import { payoutStub } from "../objects/stubs.ts";
import { unwrap } from "../outcome/outcome.ts";
import { quotePayout } from "../payout/quote.ts";

export const payoutRoutes = new Hono<AppEnv>();

/** Merchant orderIds: the upstream idempotency key, sent as is. */
const ORDER_ID = /^[A-Za-z0-9._:-]{1,100}$/;

const payoutBody = z.object({
  orderId: z
    .string()
    .check(z.regex(ORDER_ID, "orderId must be 1-100 characters of A-Z a-z 0-9 . _ : -")),
  cryptoCurrencyCode: z.string().check(z.regex(/^[A-Z0-9_]{2,20}$/)),
  address: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)),
  amount: z
    .string({ error: 'amount must be a decimal string such as "25.50"' })
    .check(z.maxLength(64)),
});

payoutRoutes.post("/", limitBody(), async (c) => {
  const body = await readJson(c, payoutBody);
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
  if (!ORDER_ID.test(orderId)) throw new ApiError(404, "not_found", "No such payout.");
  const view = unwrap(await payoutStub(c.env, orderId).commit());
  return c.json({ data: view }, 200, { "cache-control": "no-store" });
});

payoutRoutes.get("/:orderId", async (c) => {
  const orderId = c.req.param("orderId");
  if (!ORDER_ID.test(orderId)) throw new ApiError(404, "not_found", "No such payout.");
  const view = unwrap(await payoutStub(c.env, orderId).view());
  return c.json({ data: view }, 200, { "cache-control": "no-store" });
});
