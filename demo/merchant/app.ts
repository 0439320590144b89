/**
 * @module
 * The demo merchant backend as a Hono app: storefront pages, order creation (prices from the
 * catalog, token minted here), the notification endpoint, and the JSON the demo panels poll.
 *
 * Invariant: the merchant API token and the checkout signing secret never leave this process;
 * the browser sees checkout tokens and the worker's public URL only.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { checkoutPage } from "../storefront/checkout-page.ts";
import { registerDemoWallet } from "../storefront/demo-wallet/serve.ts";
import { merchantPage, notFoundPage } from "../storefront/merchant-page.ts";
import { shopPage } from "../storefront/shop-page.ts";
import { topUpPage } from "../storefront/topup-page.ts";
import type { ShopConfig } from "./config.ts";
import { Inbox } from "./inbox.ts";
import { checkoutTokenFor, fetchLedger, topUpTokenFor, verifyNotification } from "./integration.ts";
import { cartSchema, type Order, OrderBook } from "./orders.ts";
import {
  SIMULATE_ACTIONS,
  type SimulateAction,
  sendTestWebhook,
  simulate,
} from "./sandbox-admin.ts";

const PUBLIC_DIR = fileURLToPath(new URL("../storefront/public", import.meta.url));

/** Everything the app holds in memory, exposed for tests and logs. */
export interface ShopState {
  orders: OrderBook;
  inbox: Inbox;
}

const error = (code: string, message: string) => ({ error: { code, message } });

/**
 * Builds the app.
 *
 * @example
 * serve({ fetch: createShopApp(loadShopConfig(process.env)).app.fetch, port: 5173 });
 */
export function createShopApp(config: ShopConfig): { app: Hono; state: ShopState } {
  const state: ShopState = { orders: new OrderBook(), inbox: new Inbox() };
  const app = new Hono();

  const ledgerOf = async (order: Order) => {
    try {
      return await fetchLedger(config.workerUrl, config.merchantApiToken, order.invoiceNumber);
    } catch (cause) {
      return {
        status: 0,
        body: error("unreachable", `worker unreachable: ${(cause as Error).message}`),
      };
    }
  };

  app.get("/healthz", (c) => c.json({ ok: true }));
  // The checkout page's demo wallet (x402, sandbox only): its bundle and its balance relay.
  registerDemoWallet(app, config.sandboxUrl);
  app.use(
    "/assets/*",
    serveStatic({
      root: relative(process.cwd(), PUBLIC_DIR) || ".",
      rewriteRequestPath: (path) => path.replace(/^\/assets/, ""),
    }),
  );
  app.get("/", (c) => c.html(shopPage().value));
  app.get("/merchant", (c) => c.html(merchantPage().value));

  // A top-up: the customer credits their account with a standalone deposit address.
  app.get("/topup", async (c) => {
    const topUpId = `topup-${crypto.randomUUID().slice(0, 8)}`;
    const token = await topUpTokenFor(topUpId, "demo-customer", config.checkoutSigningSecret);
    c.header("cache-control", "no-store");
    return c.html(
      topUpPage({ topUpId, token, workerUrl: config.workerUrl, sandboxUrl: config.sandboxUrl })
        .value,
    );
  });

  app.get("/checkout/:invoiceNumber", async (c) => {
    const order = state.orders.get(c.req.param("invoiceNumber"));
    if (!order) return c.html(notFoundPage().value, 404);
    const number = encodeURIComponent(order.invoiceNumber);
    // The shop page says what the ledger says; a failed or part-paid payer goes back to pay.
    const token = await checkoutTokenFor(order, config.checkoutSigningSecret, {
      returnUrl: `${config.shopUrl}/?order=${number}`,
      successUrl: `${config.shopUrl}/?order=${number}`,
      failedUrl: `${config.shopUrl}/checkout/${number}`,
    });
    c.header("cache-control", "no-store");
    return c.html(checkoutPage({ order, token, workerUrl: config.workerUrl }).value);
  });

  app.post("/api/orders", bodyLimit({ maxSize: 16 * 1024 }), async (c) => {
    const parsed = cartSchema.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) {
      return c.json(error("validation_failed", parsed.error.issues[0]?.message ?? "bad cart"), 400);
    }
    try {
      const order = state.orders.create(parsed.data);
      console.log(`order ${order.invoiceNumber}: ${order.amount} ${order.currency}`);
      return c.json({ order, checkoutUrl: `/checkout/${order.invoiceNumber}` }, 201);
    } catch (cause) {
      return c.json(error("validation_failed", (cause as Error).message), 400);
    }
  });

  // Where the worker delivers order effects (MERCHANT_WEBHOOK_URL).
  app.post("/api/notifications", bodyLimit({ maxSize: 64 * 1024 }), async (c) => {
    const raw = await c.req.text();
    const verified = verifyNotification(
      raw,
      c.req.header("x-checkout-signature"),
      config.merchantWebhookSecret,
    );
    if (!verified.ok) {
      state.inbox.rejected++;
      console.warn(`warning: notification rejected: ${verified.reason}`);
      return c.json(error("unauthorized", verified.reason), 401);
    }
    const { notification } = verified;
    const fresh = state.inbox.accept(notification);
    console.log(
      `notification ${notification.type} ${notification.id}${fresh ? "" : " (duplicate)"}`,
    );
    return c.json({ received: true, duplicate: !fresh });
  });

  app.get("/api/orders/:invoiceNumber/merchant", async (c) => {
    const order = state.orders.get(c.req.param("invoiceNumber"));
    if (!order) return c.json(error("not_found", "no such order"), 404);
    return c.json({
      order,
      ledger: await ledgerOf(order),
      notifications: state.inbox.list(order.invoiceNumber),
    });
  });

  app.get("/api/merchant", async (c) => {
    const recent = state.orders.list().slice(0, 10);
    const orders = await Promise.all(
      recent.map(async (order) => ({ order, ledger: await ledgerOf(order) })),
    );
    return c.json({ orders, notifications: state.inbox.list(), rejected: state.inbox.rejected });
  });

  // Demo panel → sandbox admin routes (the sandbox stands in for the service's admin panel).
  app.post("/api/sandbox/simulate", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const { ref, action, amount } = body;
    if (typeof ref !== "string" || !/^[A-Za-z0-9._-]{1,100}$/.test(ref)) {
      return c.json(error("validation_failed", "ref must be an invoice id or orderId"), 400);
    }
    if (!SIMULATE_ACTIONS.includes(action as SimulateAction)) {
      return c.json(
        error("validation_failed", `action must be one of ${SIMULATE_ACTIONS.join(", ")}`),
        400,
      );
    }
    if (amount !== undefined && (typeof amount !== "string" || !/^\d+(\.\d+)?$/.test(amount))) {
      return c.json(error("validation_failed", "amount must be a decimal string"), 400);
    }
    try {
      const result = await simulate(config.sandboxUrl, ref, action as SimulateAction, amount);
      return c.json(result);
    } catch (cause) {
      return c.json(error("unreachable", `sandbox unreachable: ${(cause as Error).message}`), 502);
    }
  });

  app.post("/api/sandbox/test-webhook", async (c) => {
    try {
      return c.json(await sendTestWebhook(config.sandboxUrl));
    } catch (cause) {
      return c.json(error("unreachable", `sandbox unreachable: ${(cause as Error).message}`), 502);
    }
  });

  return { app, state };
}
