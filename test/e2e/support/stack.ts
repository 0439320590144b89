/**
 * @module
 * One demo stack per test file (`startDemo` on free ports, exactly what `npm run demo` runs)
 * and Node-side helpers on it: create an order the way the shop does, read the merchant's view,
 * drive and inspect the sandbox.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type DemoStack, startDemo } from "../../../demo/run.ts";

const WIDGET_BUNDLE = fileURLToPath(new URL("../../../dist/public/widget.js", import.meta.url));

/** An order as the demo backend returns it. */
export interface ShopOrder {
  invoiceNumber: string;
  currency: string;
  amount: string;
}

/** A notification as the demo backend stores it. */
export interface StoredNotification {
  id: string;
  type: string;
  data: Record<string, unknown>;
  deliveries: number;
}

/** What `GET /api/orders/:n/merchant` answers. */
export interface MerchantView {
  order: ShopOrder;
  ledger: { status: number; body: Record<string, unknown> };
  notifications: StoredNotification[];
}

/** The running stack plus helpers. */
export interface Stack extends DemoStack {
  createOrder(
    items: { productId: string; quantity: number }[],
    currency?: "USD" | "EUR",
  ): Promise<ShopOrder>;
  checkoutUrl(invoiceNumber: string): string;
  merchantView(invoiceNumber: string): Promise<MerchantView>;
  /** The ledger object (unwrapping a `{ data }` envelope if the worker uses one). */
  ledger(invoiceNumber: string): Promise<Record<string, unknown>>;
  simulate(
    ref: string,
    action: string,
    amount?: string,
  ): Promise<{ status: number; body: unknown }>;
  /** The sandbox's request log for a path (`GET /sandbox/requests?path=`). */
  sandboxRequests(path: string): Promise<Record<string, unknown>[]>;
}

async function json(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}

/**
 * Starts the stack on free ports, quiet unless `E2E_VERBOSE=1`; `hosted` = the sandbox as the
 * public API only (`npm run demo -- --hosted`).
 *
 * @example
 * let stack: Stack;
 * beforeAll(async () => { stack = await startStack(); });
 * afterAll(() => stack?.stop());
 */
export async function startStack(
  options: { hosted?: boolean; merchantWebhookUrl?: string } = {},
): Promise<Stack> {
  const demo = await startDemo({
    hosted: options.hosted ?? false,
    ...(options.merchantWebhookUrl ? { merchantWebhookUrl: options.merchantWebhookUrl } : {}),
    ports: { sandbox: 0, worker: 0, shop: 0 },
    quiet: process.env.E2E_VERBOSE !== "1",
    // Built once by test/e2e/global-setup.ts; built here only if that did not run.
    buildWidget: !existsSync(WIDGET_BUNDLE),
  });
  const { shopUrl, sandboxUrl } = demo.urls;
  const merchantView = async (invoiceNumber: string) => {
    const response = await fetch(`${shopUrl}/api/orders/${invoiceNumber}/merchant`);
    if (!response.ok) throw new Error(`merchant view ${response.status}`);
    return (await response.json()) as MerchantView;
  };
  return {
    ...demo,
    async createOrder(items, currency = "USD") {
      const response = await fetch(`${shopUrl}/api/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currency, items }),
      });
      if (response.status !== 201)
        throw new Error(`create order: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { order: ShopOrder }).order;
    },
    checkoutUrl: (invoiceNumber) => `${shopUrl}/checkout/${invoiceNumber}`,
    merchantView,
    async ledger(invoiceNumber) {
      const { ledger } = await merchantView(invoiceNumber);
      if (ledger.status !== 200)
        throw new Error(`ledger: ${ledger.status} ${JSON.stringify(ledger.body)}`);
      const body = ledger.body as { data?: Record<string, unknown> };
      return body.data && typeof body.data === "object" ? body.data : ledger.body;
    },
    async simulate(ref, action, amount) {
      const response = await fetch(
        `${sandboxUrl}/sandbox/invoices/${encodeURIComponent(ref)}/simulate`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(amount ? { action, amount } : { action }),
        },
      );
      return { status: response.status, body: await json(response) };
    },
    async sandboxRequests(path) {
      const response = await fetch(
        `${sandboxUrl}/sandbox/requests?path=${encodeURIComponent(path)}`,
      );
      if (!response.ok) throw new Error(`sandbox request log: ${response.status}`);
      const body = (await response.json()) as unknown;
      const list = Array.isArray(body) ? body : (body as { data?: unknown }).data;
      if (!Array.isArray(list))
        throw new Error(`unexpected request log shape: ${JSON.stringify(body).slice(0, 200)}`);
      return list as Record<string, unknown>[];
    },
  };
}
