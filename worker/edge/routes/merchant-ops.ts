/**
 * @module
 * The merchant's operations routes (Bearer `MERCHANT_API_TOKEN`), answered by the account's
 * index (`core/account/account-object.ts`): the order list and its CSV export, the notification log,
 * redelivery, and test notifications. Each query and body is validated with the schemas of
 * `lib/api/merchant-ops.ts`; a bad one is 400 `validation_failed` naming the parameter, and
 * reaches no object.
 */
import type { Context } from "hono";
import type * as z from "zod/mini";
import { accountKey } from "../../core/account/account-key.ts";
import type { OrderFilters } from "../../core/account/account-rpc.ts";
import { CSV_HEADER, csvLine } from "../../core/account/csv.ts";
import { decodeCursor, encodeCursor, type PagePosition } from "../../core/account/page-cursor.ts";
import { TEST_SENDS_PER_MINUTE } from "../../core/account/test-throttle.ts";
import { accountStub } from "../../core/objects/stubs.ts";
import {
  DEFAULT_PAGE,
  NOTIFICATION_ID,
  notificationsListQuery,
  ordersCsvQuery,
  ordersListQuery,
  testNotificationsBody,
} from "../../lib/api/merchant-ops.ts";
import { ApiError } from "../../lib/api-error.ts";
import { readJson } from "../http/json-body.ts";
import { limitBody } from "../http/limits.ts";
import { merchantAuth } from "../http/merchant-auth.ts";
import { readQuery as query } from "../http/query.ts";
import { Hono } from "../http/router.ts";
import type { AppEnv } from "../http/types.ts";

export const merchantOpsRoutes = new Hono<AppEnv>();

// Paths are listed (not "*"): this app is mounted at /v1 beside the widget's routes.
for (const path of ["/orders", "/orders.csv", "/notifications", "/notifications/*"])
  merchantOpsRoutes.use(path, merchantAuth);

/** Rows per index call while the export streams. */
const CSV_PAGE = 500;

const noStore = { "cache-control": "no-store" };

/** The position a `cursor` names; 400 for one that is not ours. */
function position(cursor: string | undefined): PagePosition | null {
  if (cursor === undefined) return null;
  const at = decodeCursor(cursor);
  if (!at) throw new ApiError(400, "validation_failed", "cursor is not a cursor from nextCursor.");
  return at;
}

/** The validated filters as the index takes them (instants normalised to `toISOString`). */
function orderFilters(q: z.output<typeof ordersCsvQuery>): OrderFilters {
  const iso = (s: string | undefined) => (s === undefined ? undefined : new Date(s).toISOString());
  const filters: OrderFilters = {
    // Each state once: only four exist, and a repeated one would bind one more SQL value each
    // (past SQLite's 100, a 500).
    states:
      q.state === undefined
        ? undefined
        : ([...new Set(q.state.split(","))] as OrderFilters["states"]),
    createdFrom: iso(q.createdFrom),
    createdTo: iso(q.createdTo),
    invoicePrefix: q.invoicePrefix,
    currency: q.currency,
    cryptoCurrencyCode: q.cryptoCurrencyCode,
  };
  if (filters.createdFrom && filters.createdTo && filters.createdFrom >= filters.createdTo) {
    throw new ApiError(400, "validation_failed", "createdFrom must be before createdTo.");
  }
  // RPC arguments are structured-cloned: drop the absent ones.
  return Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined),
  ) as OrderFilters;
}

const index = (c: Context<AppEnv>) => accountStub(c.env, accountKey(c.var.config));

/** `GET /v1/orders`: one page, newest first. */
merchantOpsRoutes.get("/orders", async (c) => {
  const q = query(c, ordersListQuery);
  const filters = orderFilters(q);
  const limit = q.limit === undefined ? DEFAULT_PAGE : Number(q.limit);
  const page = await index(c).listOrders(filters, limit, position(q.cursor));
  return c.json(
    { data: page.data, nextCursor: page.next && encodeCursor(page.next) },
    200,
    noStore,
  );
});

/** `GET /v1/orders.csv`: every matching order, streamed page by page. */
merchantOpsRoutes.get("/orders.csv", async (c) => {
  const filters = orderFilters(query(c, ordersCsvQuery));
  const stub = index(c);
  const encoder = new TextEncoder();
  let after: PagePosition | null = null;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(CSV_HEADER));
        return;
      }
      const page = await stub.listOrders(filters, CSV_PAGE, after);
      if (page.data.length > 0) controller.enqueue(encoder.encode(page.data.map(csvLine).join("")));
      after = page.next;
      if (!after) controller.close();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="orders.csv"',
      ...noStore,
    },
  });
});

/** `GET /v1/notifications`: the log, newest first. */
merchantOpsRoutes.get("/notifications", async (c) => {
  const q = query(c, notificationsListQuery);
  const limit = q.limit === undefined ? DEFAULT_PAGE : Number(q.limit);
  const filters = Object.fromEntries(
    Object.entries({ status: q.status, invoiceNumber: q.invoiceNumber }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const page = await index(c).listNotifications(filters, limit, position(q.cursor));
  return c.json(
    { data: page.data, nextCursor: page.next && encodeCursor(page.next) },
    200,
    noStore,
  );
});

/**
 * `POST /v1/notifications/test {type?}`: signed test notifications, sent now; 429 `rate_limited`
 * past the deployment's calls of the minute (`core/account/test-throttle.ts`), checked after
 * the body and the URL so a bad call uses no slot.
 */
merchantOpsRoutes.post("/notifications/test", limitBody(), async (c) => {
  const raw = await c.req.raw.clone().text();
  const { type } = raw.trim() === "" ? {} : await readJson(c, testNotificationsBody);
  if (!c.var.config.MERCHANT_WEBHOOK_URL) {
    throw new ApiError(
      409,
      "webhook_url_missing",
      "MERCHANT_WEBHOOK_URL is not set: there is nowhere to send notifications.",
    );
  }
  const sent = await index(c).sendTestNotifications(type ? [type] : []);
  if (!sent.ok) {
    throw new ApiError(
      429,
      "rate_limited",
      `At most ${TEST_SENDS_PER_MINUTE} test notification calls a minute; try again later.`,
      sent.retryAfter,
    );
  }
  return c.json({ data: sent.views }, 202, noStore);
});

/** `POST /v1/notifications/:id/redeliver`: back to pending, sent again soon. */
merchantOpsRoutes.post("/notifications/:id/redeliver", async (c) => {
  const id = c.req.param("id");
  if (!NOTIFICATION_ID.test(id)) throw new ApiError(404, "not_found", "No such notification.");
  const view = await index(c).redeliver(id);
  if (!view) throw new ApiError(404, "not_found", "No such notification.");
  return c.json({ data: view }, 202, noStore);
});
