/**
 * @module
 * The merchant's server-to-server API (Bearer `MERCHANT_API_TOKEN`): the order ledger, the
 * order refund (`payout/refunds/refund-order.ts`) and the configuration doctor.
 */
import type { Context } from "hono";
import { accountKey } from "../../core/account/account-key.ts";
import { paymentModeFor } from "../../core/config/payment-mode.ts";
import { accountStub } from "../../core/objects/stubs.ts";
import { refundOrderBody } from "../../lib/api/schemas/requests.ts";
import { ApiError } from "../../lib/api-error.ts";
import { unwrap } from "../../lib/outcome/outcome.ts";
import { orderStubForInvoiceNumber } from "../../order/order-stub.ts";
import { refundOrder } from "../../payout/refunds/refund-order.ts";
import { runDoctor } from "../doctor/doctor.ts";
import { readJson } from "../http/json-body.ts";
import { limitBody } from "../http/limits.ts";
import { merchantAuth } from "../http/merchant-auth.ts";
import { Hono } from "../http/router.ts";
import type { AppEnv } from "../http/types.ts";
import { INVOICE_NUMBER } from "../token/claims.ts";

export const merchantRoutes = new Hono<AppEnv>();

// Paths are listed (not "*"): this app is mounted at /v1 beside the widget's routes.
for (const path of ["/orders/*", "/doctor", "/payouts", "/payouts/*"])
  merchantRoutes.use(path, merchantAuth);

merchantRoutes.get("/orders/:invoiceNumber", async (c) => {
  const invoiceNumber = c.req.param("invoiceNumber");
  if (!INVOICE_NUMBER.test(invoiceNumber)) throw new ApiError(404, "not_found", "No such order.");
  const { stub } = await orderStubForInvoiceNumber(
    c.env,
    invoiceNumber,
    c.var.config.CHECKOUT_SIGNING_SECRET,
  );
  return c.json({ data: unwrap(await stub.ledger()) }, 200, { "cache-control": "no-store" });
});

/** The refund's `amount`: absent (an empty body) refunds everything refundable. */
async function refundAmount(c: Context<AppEnv>): Promise<string | undefined> {
  const raw = await c.req.raw.clone().text();
  const { amount } = raw.trim() === "" ? {} : await readJson(c, refundOrderBody);
  if (amount !== undefined && !/^\d+(\.\d+)?$/.test(amount)) {
    throw new ApiError(400, "validation_failed", 'amount must be a decimal string such as "15".');
  }
  return amount;
}

/** `POST /v1/orders/:invoiceNumber/refund {amount?}`: 201 a new refund, 200 the live one. */
merchantRoutes.post("/orders/:invoiceNumber/refund", limitBody(), async (c) => {
  const invoiceNumber = c.req.param("invoiceNumber");
  if (!INVOICE_NUMBER.test(invoiceNumber)) throw new ApiError(404, "not_found", "No such order.");
  const at = { env: c.env, config: c.var.config, log: c.var.log };
  const { view, created } = await refundOrder(at, invoiceNumber, await refundAmount(c));
  return c.json({ data: view }, created ? 201 : 200, { "cache-control": "no-store" });
});

merchantRoutes.get("/doctor", async (c) => {
  const { config } = c.var;
  // The mode in force: the deployment's remembered decision, not a fresh question.
  const report = await runDoctor(
    config,
    () => paymentModeFor(c.env, config),
    () => accountStub(c.env, accountKey(config)).health(),
  );
  // A report of the deployment's settings and health, right now: never kept by a cache.
  return c.json({ data: report }, report.ok ? 200 : 502, { "cache-control": "no-store" });
});
