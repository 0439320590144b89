/**
 * @module
 * The merchant operations routes of MERCHANT-API (order list and CSV, notification log,
 * redelivery, test events): their queries and answers, published in `../openapi.ts`.
 *
 * Written from the pinned shapes while the routes were built beside this (h21a): when the
 * routes land, they validate their queries with these schemas (or this file is replaced by
 * theirs, keeping the exported names), so the document stays generated from what the routes
 * use. Checked both ways against `../contract.ts`.
 */
import * as z from "zod/mini";
import { INVOICE_NUMBER } from "../../../packages/server/src/token/claim-rules.ts";
import type { NotificationView, OrderSummary } from "../contract.ts";
import { decimalString, type Same } from "./common.ts";
import { cryptoCode } from "./requests.ts";
import { invoiceStatus, orderState } from "./responses.ts";

const nullableString = z.nullable(z.string());

export const notificationType = z.enum([
  "order.status_changed",
  "order.payment_applied",
  "order.paid",
  "order.underpaid",
  "deposit.status_changed",
  "deposit.completed",
  "payout.status_changed",
]);

export const orderSummary = z.object({
  invoiceNumber: z.string(),
  state: orderState,
  amount: decimalString,
  currency: z.string(),
  amountPaid: decimalString,
  cryptoCurrencyCode: nullableString,
  cryptoAmountReceived: z.nullable(decimalString),
  lastInvoiceStatus: z.nullable(invoiceStatus),
  attempts: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  paidAt: nullableString,
});

export const notificationView = z.object({
  id: z.string(),
  type: notificationType,
  invoiceNumber: nullableString,
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.int(),
  lastAttemptAt: nullableString,
  lastError: nullableString,
  nextAttemptAt: nullableString,
  createdAt: z.string(),
  deliveredAt: nullableString,
});

const limit = z.optional(z.string().check(z.regex(/^([1-9]\d?|100)$/, "limit must be 1-100")));
const cursor = z.optional(z.string().check(z.minLength(1), z.maxLength(512)));
const instant = z.optional(z.iso.datetime({ offset: true }));

/** `GET /v1/orders.csv` (no paging) and, with `limit` and `cursor`, `GET /v1/orders`. */
export const orderFiltersQuery = z.object({
  state: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^(unpaid|partially_paid|paid|refunded)(,(unpaid|partially_paid|paid|refunded))*$/,
          "state must be unpaid, partially_paid, paid or refunded (comma-separated)",
        ),
      ),
  ),
  createdFrom: instant,
  createdTo: instant,
  invoicePrefix: z.optional(z.string().check(z.regex(INVOICE_NUMBER))),
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/))),
  cryptoCurrencyCode: z.optional(cryptoCode),
});

export const listOrdersQuery = z.extend(orderFiltersQuery, { limit, cursor });

export const listNotificationsQuery = z.object({
  status: z.optional(z.enum(["pending", "delivered", "failed"])),
  limit,
  cursor,
  invoiceNumber: z.optional(z.string().check(z.regex(INVOICE_NUMBER))),
});

/** `POST /v1/notifications/test`. */
export const testNotificationsBody = z.object({ type: z.optional(notificationType) });

const checked: [
  Same<z.output<typeof orderSummary>, OrderSummary>,
  Same<z.output<typeof notificationView>, NotificationView>,
] = [true, true];
void checked;
