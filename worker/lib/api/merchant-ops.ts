/**
 * @module
 * The merchant operations API's queries and bodies, in one place: what
 * `GET /v1/orders`, `GET /v1/orders.csv`, `GET /v1/notifications` and
 * `POST /v1/notifications/test` accept (`edge/routes/merchant-ops.ts` validates with them; the
 * OpenAPI document is generated from them), the notification kinds and the CSV's columns.
 * The answers' schemas (and the notification kind's) are `schemas/merchant-ops-answers.ts`
 * (the document's and the tests', kept out of the worker bundle).
 *
 * Query schemas are plain strings with checks (no transforms), so they describe the wire
 * exactly; the route turns a validated string into its value (a list, a number, an instant).
 * The README's "Merchant operations" section describes each route. The answers' plain types
 * are the contract's, `packages/contract/src/http-api.ts` (what `@crypto-checkout/server` publishes).
 */
import * as z from "zod/mini";
import type { NotificationView, OrderSummary } from "../../../packages/contract/src/http-api.ts";

export type { NotificationView, OrderSummary };

/** Notification kinds (the `type` of every notification body). */
export const NOTIFICATION_TYPES = [
  "order.status_changed",
  "order.payment_applied",
  "order.paid",
  "order.underpaid",
  "deposit.status_changed",
  "deposit.completed",
  "payout.status_changed",
] as const;

/** A notification's kind. */
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Delivery states of a notification. */
export const NOTIFICATION_STATUSES = ["pending", "delivered", "failed"] as const;

/** Page sizes: 1..100, 50 when absent. */
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 50;

const limit = z
  .string()
  .check(z.regex(/^(100|[1-9][0-9]?)$/, "must be a whole number from 1 to 100"));
const cursor = z
  .string()
  .check(
    z.maxLength(512, "is not a cursor from nextCursor"),
    z.regex(/^[A-Za-z0-9_-]+$/, "is not a cursor from nextCursor"),
  );
/**
 * An RFC 3339 instant with seconds and a zone (`Z` or `±hh:mm`): zod's own
 * `z.iso.datetime({ offset: true })` pattern, spelled out. A plain regex check accepts exactly
 * what that schema accepts (`test/unit/merchant-ops-schemas.test.ts`) without bringing zod's
 * ISO date, time and duration schemas into the worker bundle (≈ 0.7 KB gzip, README "Worker
 * bundle size"); the OpenAPI document still says `format: date-time` (`openapi/document.ts`).
 */
export const INSTANT =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$/;
const instant = z
  .string()
  .check(z.regex(INSTANT, "must be an ISO 8601 instant with a zone, e.g. 2026-01-31T00:00:00Z"));
const stateList = z
  .string()
  .check(
    z.regex(
      /^(unpaid|partially_paid|paid|refunded)(,(unpaid|partially_paid|paid|refunded))*$/,
      "must be unpaid, partially_paid, paid or refunded (comma-separated for several)",
    ),
  );
const invoiceNumber = z
  .string()
  .check(z.regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 characters of A-Z a-z 0-9 . _ -"));

/** The filters `GET /v1/orders` and `GET /v1/orders.csv` share. */
const orderFilters = {
  state: z.optional(stateList),
  createdFrom: z.optional(instant),
  createdTo: z.optional(instant),
  invoicePrefix: z.optional(invoiceNumber),
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/, "must be a fiat code such as USD"))),
  cryptoCurrencyCode: z.optional(
    z.string().check(z.regex(/^[A-Z0-9_]{1,32}$/, "must be a currency code such as USDT_TRC20")),
  ),
};

/** `GET /v1/orders` query. Unknown parameters are refused (a typo is never a silent no-filter). */
export const ordersListQuery = z.strictObject({
  ...orderFilters,
  limit: z.optional(limit),
  cursor: z.optional(cursor),
});

/** `GET /v1/orders.csv` query: the same filters, no paging (every matching order). */
export const ordersCsvQuery = z.strictObject(orderFilters);

/**
 * The CSV's columns: `OrderSummary`'s keys, in the order the list answers them (the answer's
 * schema, `schemas/merchant-ops-answers.ts`, has the same keys in the same order:
 * `test/unit/merchant-ops-schemas.test.ts`). A literal, so the worker bundle needs no schema
 * of an answer.
 */
export const ORDER_CSV_COLUMNS = [
  "invoiceNumber",
  "state",
  "amount",
  "currency",
  "amountPaid",
  "cryptoCurrencyCode",
  "cryptoAmountReceived",
  "lastInvoiceStatus",
  "attempts",
  "createdAt",
  "updatedAt",
  "paidAt",
  "paymentMethod",
  "x402Payer",
  "x402Transaction",
] as const satisfies readonly (keyof OrderSummary)[];

// Every key of OrderSummary is a column (the `satisfies` above says every column is a key).
const everyColumn: Exclude<keyof OrderSummary, (typeof ORDER_CSV_COLUMNS)[number]> extends never
  ? true
  : false = true;
void everyColumn;

/** `GET /v1/notifications` query. */
export const notificationsListQuery = z.strictObject({
  status: z.optional(z.enum(NOTIFICATION_STATUSES, "must be pending, delivered or failed")),
  limit: z.optional(limit),
  cursor: z.optional(cursor),
  invoiceNumber: z.optional(invoiceNumber),
});

/** A notification's id in a path (`evt_<uuid>`). */
export const NOTIFICATION_ID = /^evt_[0-9a-f-]{36}$/;

/** `POST /v1/notifications/test` body: one type, or (absent or empty body) one of each. */
export const testNotificationsBody = z.strictObject({
  type: z.optional(z.enum(NOTIFICATION_TYPES, `must be one of ${NOTIFICATION_TYPES.join(", ")}`)),
});
