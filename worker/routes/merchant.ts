/**
 * @module
 * The merchant's server-to-server API (Bearer `MERCHANT_API_TOKEN`): the order ledger and the
 * configuration doctor.
 */
import { Hono } from "hono";
import { runDoctor } from "../config/doctor.ts";
import { paymentModeFor } from "../config/payment-mode.ts";
import { ApiError } from "../http/api-error.ts";
import { limitBody } from "../http/limits.ts";
import { merchantAuth } from "../http/merchant-auth.ts";
import type { AppEnv } from "../http/types.ts";
import { orderStubForInvoiceNumber } from "../objects/stubs.ts";
import { unwrap } from "../outcome/outcome.ts";
import { INVOICE_NUMBER } from "../token/claims.ts";
import { refundOrder } from "./payouts.ts";

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

merchantRoutes.post("/orders/:invoiceNumber/refund", limitBody(), refundOrder);

merchantRoutes.get("/doctor", async (c) => {
  const { config } = c.var;
  // The mode in force: the deployment's remembered decision, not a fresh question.
  const report = await runDoctor(config, () => paymentModeFor(c.env, config));
  return c.json({ data: report }, report.ok ? 200 : 502);
});
