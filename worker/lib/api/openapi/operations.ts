/**
 * @module
 * Every `/v1` route as data: method, path, who may call it, the zod schemas of its request
 * (the very ones the route validates with) and of each answer. `document.ts` turns this table into
 * the OpenAPI 3.1 document; a route missing here is missing from the document, and the worker
 * tests refuse any real answer the document does not describe.
 */
import * as z from "zod/mini";
import {
  notificationsListQuery,
  ordersCsvQuery,
  ordersListQuery,
  testNotificationsBody,
} from "../merchant-ops.ts";
import { apiErrorSchema, dataOf } from "../schemas/common.ts";
import { doctorReport, orderLedger } from "../schemas/merchant.ts";
import {
  notificationsListResponse,
  notificationView,
  orderSummary,
  ordersListResponse,
  redeliverResponse,
  testNotificationsResponse,
} from "../schemas/merchant-ops-answers.ts";
import {
  currenciesQuery,
  lockCurrencyBody,
  openCheckoutBody,
  openDepositBody,
  payoutQuoteBody,
  refundAddressBody,
  refundOrderBody,
} from "../schemas/requests.ts";
import {
  checkoutSnapshot,
  cryptoCurrency,
  depositSnapshot,
  errorWithSnapshot,
  fiatCurrency,
  payoutView,
  x402PaymentRequired,
} from "../schemas/responses.ts";

/** Who may call a route. */
export type Caller = "anyone" | "storefront" | "merchant";

/** One answer: a JSON body with this schema, CSV, an SSE stream, or nothing. */
export type Answer = (
  | { description: string; json: z.ZodMiniType }
  | { description: string; csv: true }
  | { description: string; sse: z.ZodMiniType }
  | { description: string; empty: true }
) & {
  /** Response headers worth documenting: name → what it carries. */
  headers?: Record<string, string>;
};

/** One route of the table. */
export interface Operation {
  id: string;
  method: "get" | "post";
  /** OpenAPI path template (`{param}`). */
  path: string;
  summary: string;
  tag: "Catalog" | "Checkout" | "Top-up" | "Orders" | "Payouts" | "Notifications" | "Operations";
  caller: Caller;
  /** Path parameters and what they name. */
  params?: Record<string, string>;
  query?: z.ZodMiniObject;
  body?: { schema: z.ZodMiniType; optional?: boolean };
  /** Named schemas: `id` → schema, put in `components.schemas`. */
  answers: Record<string, Answer>;
}

/** Registered names of the shared schemas (`components.schemas`). */
export const NAMED: [string, z.ZodMiniType][] = [
  ["ApiError", apiErrorSchema],
  ["CryptoCurrency", cryptoCurrency],
  ["FiatCurrency", fiatCurrency],
  ["CheckoutSnapshot", checkoutSnapshot],
  ["DepositSnapshot", depositSnapshot],
  ["PayoutView", payoutView],
  ["OrderLedger", orderLedger],
  ["OrderSummary", orderSummary],
  ["NotificationView", notificationView],
  ["DoctorReport", doctorReport],
];

const errors = (...statuses: number[]): Record<string, Answer> =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: `{ error: { code, message } } (see the README's HTTP API table)`,
        json: apiErrorSchema,
      },
    ]),
  );

const checkout = { id: "The checkout id (`CheckoutSnapshot.id`)." };

/** What a watched thing (a checkout, a top-up) is called in its three shared routes. */
interface Watched {
  /** `checkout`, `top-up`: the noun of the answers' descriptions. */
  noun: string;
  /** The operation ids' suffix: `Checkout` → `openCheckout`, `getCheckout`, `streamCheckout`. */
  name: string;
  /** The collection's path: `/v1/checkouts`. */
  path: string;
  tag: Operation["tag"];
  openSummary: string;
  openBody: z.ZodMiniType;
  params: Record<string, string>;
  /** The snapshot's schema and its name in `components.schemas`. */
  snapshot: z.ZodMiniType;
  snapshotName: string;
}

/**
 * The three routes a checkout and a top-up share, described once: open (or reopen) from a signed
 * token (200 the existing one, 201 a new one), the snapshot, and its SSE stream (204 once the
 * final snapshot was seen).
 *
 * @example
 * watchedRoutes({ noun: "top-up", name: "Deposit", path: "/v1/deposits", … }).stream.path
 * // "/v1/deposits/{id}/events"
 */
function watchedRoutes(w: Watched): Record<"open" | "get" | "stream", Operation> {
  const common = { tag: w.tag, caller: "storefront" } as const;
  return {
    open: {
      id: `open${w.name}`,
      method: "post",
      path: w.path,
      summary: w.openSummary,
      ...common,
      body: { schema: w.openBody },
      answers: {
        "200": { description: `The existing ${w.noun}`, json: dataOf(w.snapshot) },
        "201": { description: `A new ${w.noun}`, json: dataOf(w.snapshot) },
        ...errors(400, 401, 409, 413, 429, 503),
      },
    },
    get: {
      id: `get${w.name}`,
      method: "get",
      path: `${w.path}/{id}`,
      summary: `A ${w.noun}'s snapshot`,
      ...common,
      params: w.params,
      answers: {
        "200": { description: "The snapshot", json: dataOf(w.snapshot) },
        ...errors(404),
      },
    },
    stream: {
      id: `stream${w.name}`,
      method: "get",
      path: `${w.path}/{id}/events`,
      summary: "Server-sent events: `snapshot` on every change",
      ...common,
      params: w.params,
      answers: {
        "200": { description: `\`event: snapshot\`, \`data: ${w.snapshotName}\``, sse: w.snapshot },
        "204": { description: "The final snapshot was already seen", empty: true },
        ...errors(404),
      },
    },
  };
}

/**
 * A list of the account's index the merchant pages through by cursor (`GET /v1/orders`,
 * `GET /v1/notifications`): the query its route validates, one page, 400 for a bad query.
 *
 * @example
 * cursorList({ id: "listOrders", path: "/v1/orders", …, query: ordersListQuery, page: ordersListResponse });
 */
function cursorList(list: {
  id: string;
  path: string;
  summary: string;
  tag: Operation["tag"];
  query: z.ZodMiniObject;
  page: z.ZodMiniType;
}): Operation {
  return {
    id: list.id,
    method: "get",
    path: list.path,
    summary: list.summary,
    tag: list.tag,
    caller: "merchant",
    query: list.query,
    answers: {
      "200": { description: "One page", json: list.page },
      ...errors(400, 401),
    },
  };
}

const CHECKOUT = watchedRoutes({
  noun: "checkout",
  name: "Checkout",
  path: "/v1/checkouts",
  tag: "Checkout",
  openSummary: "Open (or reopen) the checkout of a signed token",
  openBody: openCheckoutBody,
  params: checkout,
  snapshot: checkoutSnapshot,
  snapshotName: "CheckoutSnapshot",
});

const DEPOSIT = watchedRoutes({
  noun: "top-up",
  name: "Deposit",
  path: "/v1/deposits",
  tag: "Top-up",
  openSummary: "Open (or reopen) a top-up of a signed token (`mode: deposit`)",
  openBody: openDepositBody,
  params: { id: "The top-up id (`DepositSnapshot.id`)." },
  snapshot: depositSnapshot,
  snapshotName: "DepositSnapshot",
});
const invoice = { invoiceNumber: "Your invoice number (the token's `sub`)." };
const payout = { orderId: "Your payout's orderId." };

export const OPERATIONS: Operation[] = [
  {
    id: "listCryptoCurrencies",
    method: "get",
    path: "/v1/currencies",
    summary: "Crypto currencies the service accepts (cached 60 s)",
    tag: "Catalog",
    caller: "storefront",
    query: currenciesQuery,
    answers: {
      "200": { description: "The list", json: dataOf(z.array(cryptoCurrency)) },
      ...errors(400),
    },
  },
  {
    id: "listFiatCurrencies",
    method: "get",
    path: "/v1/currencies/fiat",
    summary: "Fiat currencies an order may be priced in",
    tag: "Catalog",
    caller: "storefront",
    answers: {
      "200": { description: "The list", json: dataOf(z.array(fiatCurrency)) },
      ...errors(400),
    },
  },
  CHECKOUT.open,
  CHECKOUT.get,
  {
    id: "lockCheckoutCurrency",
    method: "post",
    path: "/v1/checkouts/{id}/currency",
    summary: "Choose the crypto currency: the exact amount and address",
    tag: "Checkout",
    caller: "storefront",
    params: checkout,
    body: { schema: lockCurrencyBody },
    answers: {
      "200": { description: "The snapshot with `attempt.payment`", json: dataOf(checkoutSnapshot) },
      ...errors(400, 404, 409, 429, 503),
    },
  },
  {
    id: "retryCheckout",
    method: "post",
    path: "/v1/checkouts/{id}/retry",
    summary: "A new attempt after an expired or failed one",
    tag: "Checkout",
    caller: "storefront",
    params: checkout,
    answers: {
      "200": { description: "The snapshot of the new attempt", json: dataOf(checkoutSnapshot) },
      ...errors(404, 409, 503),
    },
  },
  {
    id: "setCheckoutRefundAddress",
    method: "post",
    path: "/v1/checkouts/{id}/refund-address",
    summary: "Where a refund of this order goes",
    tag: "Checkout",
    caller: "storefront",
    params: checkout,
    body: { schema: refundAddressBody },
    answers: {
      "200": { description: "The snapshot", json: dataOf(checkoutSnapshot) },
      ...errors(400, 404, 409, 429),
    },
  },
  {
    id: "payCheckoutWithX402",
    method: "post",
    path: "/v1/checkouts/{id}/x402",
    summary:
      "Pay from the payer's wallet (x402 v2, USDC): without `PAYMENT-SIGNATURE` the terms (402), with it one verify + settle through the service's facilitator",
    tag: "Checkout",
    caller: "storefront",
    params: checkout,
    answers: {
      "200": {
        description: "Settled (broadcast); the snapshot shows the payment until it confirms",
        json: dataOf(checkoutSnapshot),
        headers: { "PAYMENT-RESPONSE": "base64 JSON of the facilitator's settle answer" },
      },
      "202": {
        description: "The facilitator's answer was lost: the order reads the outcome itself",
        json: dataOf(checkoutSnapshot),
      },
      "402": {
        description:
          "Payment required: the exact terms; or a payment the facilitator refused (`error.reason`)",
        json: x402PaymentRequired,
        headers: { "PAYMENT-REQUIRED": "base64 JSON of the body's PaymentRequired" },
      },
      "409": {
        description:
          "`order_paid`, `order_refunded`, `x402_not_offered`, `x402_in_flight` (with the snapshot), `x402_payload_mismatch`, `x402_payment_refused` (the same refused payment again)",
        json: errorWithSnapshot,
      },
      ...errors(400, 404, 413, 429, 503),
    },
  },
  CHECKOUT.stream,
  DEPOSIT.open,
  DEPOSIT.get,
  DEPOSIT.stream,
  cursorList({
    id: "listOrders",
    path: "/v1/orders",
    summary: "Orders, newest first, by cursor",
    tag: "Orders",
    query: ordersListQuery,
    page: ordersListResponse,
  }),
  {
    id: "exportOrders",
    method: "get",
    path: "/v1/orders.csv",
    summary: "Every matching order as CSV (RFC 4180; header row = OrderSummary's keys)",
    tag: "Orders",
    caller: "merchant",
    query: ordersCsvQuery,
    answers: {
      "200": {
        description: "text/csv; charset=utf-8, streamed",
        csv: true,
        headers: { "content-disposition": '`attachment; filename="orders.csv"`' },
      },
      ...errors(400, 401),
    },
  },
  {
    id: "getOrder",
    method: "get",
    path: "/v1/orders/{invoiceNumber}",
    summary: "An order's ledger",
    tag: "Orders",
    caller: "merchant",
    params: invoice,
    answers: {
      "200": { description: "The ledger", json: dataOf(orderLedger) },
      ...errors(401, 404),
    },
  },
  {
    id: "refundOrder",
    method: "post",
    path: "/v1/orders/{invoiceNumber}/refund",
    summary: "Refund received crypto (all that is refundable when `amount` is absent)",
    tag: "Orders",
    caller: "merchant",
    params: invoice,
    body: { schema: refundOrderBody, optional: true },
    answers: {
      "200": { description: "The live refund", json: dataOf(payoutView) },
      "201": { description: "A new refund", json: dataOf(payoutView) },
      ...errors(400, 401, 404, 409, 413, 503),
    },
  },
  {
    id: "quotePayout",
    method: "post",
    path: "/v1/payouts",
    summary: "Quote a payout (idempotent per orderId)",
    tag: "Payouts",
    caller: "merchant",
    body: { schema: payoutQuoteBody },
    answers: {
      "200": { description: "The existing quote", json: dataOf(payoutView) },
      "201": { description: "A new quote", json: dataOf(payoutView) },
      ...errors(400, 401, 409, 413, 503),
    },
  },
  {
    id: "commitPayout",
    method: "post",
    path: "/v1/payouts/{orderId}/commit",
    summary: "Send the quoted payout, once",
    tag: "Payouts",
    caller: "merchant",
    params: payout,
    answers: {
      "200": { description: "The payout", json: dataOf(payoutView) },
      ...errors(401, 404, 409, 503),
    },
  },
  {
    id: "getPayout",
    method: "get",
    path: "/v1/payouts/{orderId}",
    summary: "A payout",
    tag: "Payouts",
    caller: "merchant",
    params: payout,
    answers: {
      "200": { description: "The payout", json: dataOf(payoutView) },
      ...errors(401, 404),
    },
  },
  cursorList({
    id: "listNotifications",
    path: "/v1/notifications",
    summary: "The notification log, newest first, by cursor",
    tag: "Notifications",
    query: notificationsListQuery,
    page: notificationsListResponse,
  }),
  {
    id: "redeliverNotification",
    method: "post",
    path: "/v1/notifications/{id}/redeliver",
    summary: "Send a notification again (back to pending)",
    tag: "Notifications",
    caller: "merchant",
    params: { id: "The notification id (`evt_…`)." },
    answers: {
      "202": { description: "Pending again, sent now", json: redeliverResponse },
      ...errors(401, 404),
    },
  },
  {
    id: "sendTestNotifications",
    method: "post",
    path: "/v1/notifications/test",
    summary: "Signed test events (`data.test = true`), one of each type when `type` is absent",
    tag: "Notifications",
    caller: "merchant",
    body: { schema: testNotificationsBody, optional: true },
    answers: {
      "202": { description: "Queued", json: testNotificationsResponse },
      ...errors(400, 401),
      "409": {
        description: "`webhook_url_missing`: MERCHANT_WEBHOOK_URL is not set, nowhere to send them",
        json: apiErrorSchema,
      },
      "429": {
        description:
          "`rate_limited`: the deployment's test-notification calls of the minute are used; nothing was queued",
        json: apiErrorSchema,
        headers: { "retry-after": "Whole seconds until a call is accepted again" },
      },
    },
  },
  {
    id: "runDoctor",
    method: "get",
    path: "/v1/doctor",
    summary: "Check the configuration against the service",
    tag: "Operations",
    caller: "merchant",
    answers: {
      "200": { description: "Every check passed", json: dataOf(doctorReport) },
      "502": { description: "A check failed: the report says which", json: dataOf(doctorReport) },
      ...errors(401),
    },
  },
  {
    id: "getOpenApi",
    method: "get",
    path: "/v1/openapi.json",
    summary: "This document",
    tag: "Operations",
    caller: "anyone",
    answers: { "200": { description: "OpenAPI 3.1", json: z.record(z.string(), z.unknown()) } },
  },
];
