/**
 * @module
 * The merchant's payout API (Bearer `MERCHANT_API_TOKEN`, applied by `merchant.ts` to
 * `/v1/payouts*` and `/v1/orders/*`): quote (`POST /v1/payouts`, idempotent per orderId),
 * commit once (`POST /v1/payouts/:orderId/commit`), view, and the order refund
 * (`POST /v1/orders/:invoiceNumber/refund`), which goes through the same quote → commit path.
 */
import { type Context, Hono } from "hono";
import * as z from "zod/mini";
import { requireAddress } from "../addresses/address-guard.ts";
import type { PayoutView } from "../api/contract.ts";
import { cryptoEntry } from "../catalog/live-entry.ts";
import { ApiError } from "../http/api-error.ts";
import { readJson } from "../http/json-body.ts";
import { limitBody } from "../http/limits.ts";
import type { AppEnv } from "../http/types.ts";
import { isRefundOrderId } from "../ids/upstream-order-id.ts";
import { cmp } from "../money/decimal.ts";
import { orderStubForInvoiceNumber, payoutStub } from "../objects/stubs.ts";
import { unwrap } from "../outcome/outcome.ts";
import type { RefundLedger } from "../payout/refund.ts";
import { reportRefund } from "../payout/refund-report.ts";
import type { PayoutRequest } from "../payout/store.ts";
import { checkPayoutAmount } from "../payout/validate.ts";
import { INVOICE_NUMBER } from "../token/claims.ts";

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
const refundBody = z.object({
  amount: z.optional(
    z.string({ error: 'amount must be a decimal string such as "15"' }).check(z.maxLength(64)),
  ),
});

/** Validates against the live currency list, then quotes (same orderId → same payout). */
async function quotePayout(c: Context<AppEnv>, input: Omit<PayoutRequest, "network">) {
  const currency = await cryptoEntry(c.var.config, c.var.log, input.cryptoCurrencyCode, "payouts");
  const address = await requireAddress(currency, input.address, c.var.config.SANDBOX);
  const amount = checkPayoutAmount(currency, input.amount);
  const request: PayoutRequest = { ...input, address, amount, network: currency.network };
  return unwrap(await payoutStub(c.env, input.orderId).quote(request));
}

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
  const { created, view } = await quotePayout(c, { ...body, kind: "payout", invoiceNumber: null });
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

/**
 * `POST /v1/orders/:invoiceNumber/refund {amount?}`: pays the shopper back what the ledger
 * says is refundable (or `amount`, at most that), quoted and committed in one call. Mounted by
 * `merchant.ts` (behind the merchant token); an empty body refunds everything refundable.
 *
 * @example
 * merchantRoutes.post("/orders/:invoiceNumber/refund", limitBody(), refundOrder);
 */
export async function refundOrder(c: Context<AppEnv>): Promise<Response> {
  const invoiceNumber = c.req.param("invoiceNumber") ?? "";
  if (!INVOICE_NUMBER.test(invoiceNumber)) throw new ApiError(404, "not_found", "No such order.");
  const raw = await c.req.raw.clone().text();
  const { amount } = raw.trim() === "" ? {} : await readJson(c, refundBody);
  if (amount !== undefined && !/^\d+(\.\d+)?$/.test(amount)) {
    throw new ApiError(400, "validation_failed", 'amount must be a decimal string such as "15".');
  }
  const { config } = c.var;
  const secret = config.CHECKOUT_SIGNING_SECRET;
  const { stub } = await orderStubForInvoiceNumber(c.env, invoiceNumber, secret);
  const readLedger = async (): Promise<RefundLedger> => unwrap(await stub.ledger());
  let ledger = await readLedger();

  // One live refund per order: asking again returns it.
  const live = ledger.refunds.find((r) => r.status !== "failed" && r.status !== "cancelled");
  if (live) {
    const view = unwrap(await payoutStub(c.env, live.orderId).view());
    if (view.status !== "failed" && view.status !== "cancelled") {
      if (amount !== undefined && cmp(amount, live.amount) !== 0) {
        throw new ApiError(
          409,
          "checkout_conflict",
          `Order ${invoiceNumber} already has refund ${live.orderId} of ${live.amount} ${live.cryptoCurrencyCode}; an order has one refund unless it fails.`,
        );
      }
      return c.json({ data: view }, 200, { "cache-control": "no-store" });
    }
    // The order missed the failure (its report was lost): record it, then refund anew.
    await reportRefund(c.env, secret, view);
    ledger = await readLedger();
    if (ledger.refunds.some((r) => r.orderId === live.orderId && r.status === live.status)) {
      throw new ApiError(503, "service_busy", "The order did not record its refund; try again.");
    }
  }

  // The order checks what it allows and takes its refund hold in one step: from here until
  // this refund fails, no new payment attempt or currency lock starts.
  const { orderId, plan, resumed } = unwrap(await stub.beginRefund());
  let quoted: Awaited<ReturnType<typeof quotePayout>>;
  let view: PayoutView;
  let committing = false;
  try {
    if (amount !== undefined && cmp(amount, plan.refundable) > 0) {
      throw new ApiError(
        400,
        "validation_failed",
        `amount must be a decimal string of at most the refundable ${plan.refundable} ${plan.cryptoCurrencyCode}.`,
      );
    }
    quoted = await quotePayout(c, {
      orderId,
      kind: "refund",
      invoiceNumber,
      cryptoCurrencyCode: plan.cryptoCurrencyCode,
      address: plan.address,
      amount: amount ?? plan.refundable,
    });
    committing = true;
    view = unwrap(await payoutStub(c.env, orderId).commit());
  } catch (error) {
    // A fresh refund that failed before any commit was sent (a refused or 5xx quote) moved no
    // money, and nor did a refused commit (4xx): release the hold. After an uncertain commit
    // (5xx, lost or garbled answer) the service may have paid, so the hold stays, and a resumed
    // refund keeps it whatever this call's refusal: only repeating it (or its withdrawal
    // failing) resolves it.
    const sentNothing = !committing || (error instanceof ApiError && error.status < 500);
    if (error instanceof ApiError && sentNothing && !resumed) await stub.abandonRefund(orderId);
    throw error;
  }
  // The payout object reported the commit already; this repeat is idempotent and covers a lost report.
  await reportRefund(c.env, secret, view);
  return c.json({ data: view }, quoted.created ? 201 : 200, { "cache-control": "no-store" });
}
