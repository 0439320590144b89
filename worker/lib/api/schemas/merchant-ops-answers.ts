/**
 * @module
 * The answers of the merchant operations API (`GET /v1/orders`, `GET /v1/notifications`,
 * `POST /v1/notifications/:id/redeliver`, `POST /v1/notifications/test`) as zod schemas, for
 * the OpenAPI document and the tests. The worker never parses its own answers, so this module
 * stays out of the worker bundle (README "Worker bundle size"); the queries and bodies the
 * routes validate with are `../merchant-ops.ts`'s. The checks at the end make each schema's
 * output the very type of `packages/contract/src/http-api.ts`, so neither can drift.
 */
import * as z from "zod/mini";
import type {
  NotificationType as ContractNotificationType,
  NotificationView,
  OrderSummary,
} from "../../../../packages/contract/src/http-api.ts";
import {
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  type NotificationType,
} from "../merchant-ops.ts";
import { decimalString, type Same } from "./common.ts";
import { invoiceStatus, orderState } from "./responses.ts";

/** A notification's kind, as the notification body (and the OpenAPI document's webhook) names it. */
export const notificationType = z.enum(NOTIFICATION_TYPES);

/** One order in the list. Amounts are exact decimal strings. */
export const orderSummary = z.object({
  invoiceNumber: z.string(),
  state: orderState,
  /** The token's fiat amount and code. */
  amount: decimalString,
  currency: z.string(),
  /** Fiat applied so far ("0" if none). */
  amountPaid: decimalString,
  /** The crypto currency of the newest attempt that has one (locked or paid in). */
  cryptoCurrencyCode: z.nullable(z.string()),
  /** Crypto received in that currency, over every attempt paid in it. */
  cryptoAmountReceived: z.nullable(decimalString),
  lastInvoiceStatus: z.nullable(invoiceStatus),
  attempts: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the order's one `order.paid` was made; null if never. */
  paidAt: z.nullable(z.string()),
  /** How the money came; null while nothing is paid. */
  paymentMethod: z.nullable(z.enum(["invoice", "x402", "both"])),
  /** The last confirmed x402 payment's payer and transaction. */
  x402Payer: z.nullable(z.string()),
  x402Transaction: z.nullable(z.string()),
});

/** `GET /v1/orders` answer. */
export const ordersListResponse = z.object({
  data: z.array(orderSummary),
  nextCursor: z.nullable(z.string()),
});

/** One notification and its delivery state. `lastError` never carries a secret. */
export const notificationView = z.object({
  id: z.string(),
  type: notificationType,
  invoiceNumber: z.nullable(z.string()),
  status: z.enum(NOTIFICATION_STATUSES),
  attempts: z.int(),
  lastAttemptAt: z.nullable(z.string()),
  /** "HTTP 500", "timeout", "network error", "not sent: no MERCHANT_WEBHOOK_URL". */
  lastError: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
  deliveredAt: z.nullable(z.string()),
});

/** `GET /v1/notifications` answer. */
export const notificationsListResponse = z.object({
  data: z.array(notificationView),
  nextCursor: z.nullable(z.string()),
});

/** `POST /v1/notifications/:id/redeliver` answer (202). */
export const redeliverResponse = z.object({ data: notificationView });

/** `POST /v1/notifications/test` answer (202). */
export const testNotificationsResponse = z.object({ data: z.array(notificationView) });

// Each schema's output is exactly the contract's type (an optional field on one side fails).
const checked: [
  Same<z.output<typeof orderSummary>, OrderSummary>,
  Same<z.output<typeof notificationView>, NotificationView>,
  Same<NotificationType, ContractNotificationType>,
] = [true, true, true];
void checked;
