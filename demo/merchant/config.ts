/**
 * @module
 * The demo merchant backend's settings, from the environment with local-demo defaults, so
 * `node demo/merchant/main.ts` works on its own next to `npm run dev` and `npm run sandbox`.
 *
 * Invariant: the secrets stay on the server; pages only ever see the worker's public URL.
 */
import { DEFAULT_ENDPOINTS, DEMO_MERCHANT_SECRETS } from "../../scripts/dev-vars.ts";

/** Settings of the storefront + merchant backend. */
export interface ShopConfig {
  port: number;
  /** This server's own origin (return URLs). */
  shopUrl: string;
  /** The worker: the page loads `widget.js` from it, the backend reads the ledger from it. */
  workerUrl: string;
  /** The sandbox (the payment service simulator): the demo panel drives it. */
  sandboxUrl: string;
  /** Signs checkout tokens; the worker's `CHECKOUT_SIGNING_SECRET`. */
  checkoutSigningSecret: string;
  /** Bearer token of the worker's merchant API. */
  merchantApiToken: string;
  /** The key of the worker's notification signatures (`MERCHANT_WEBHOOK_SECRET`). */
  merchantWebhookSecret: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * Reads the configuration.
 *
 * @example
 * const config = loadShopConfig(process.env);
 * config.port; // 5173 unless SHOP_PORT is set
 */
export function loadShopConfig(env: NodeJS.ProcessEnv): ShopConfig {
  const port = Number(env.SHOP_PORT ?? 5173);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error("SHOP_PORT must be a port number");
  }
  return {
    port,
    shopUrl: trimSlash(env.SHOP_URL ?? `http://127.0.0.1:${port}`),
    workerUrl: trimSlash(env.WORKER_URL ?? DEFAULT_ENDPOINTS.workerUrl),
    sandboxUrl: trimSlash(env.SANDBOX_URL ?? DEFAULT_ENDPOINTS.sandboxUrl),
    checkoutSigningSecret:
      env.CHECKOUT_SIGNING_SECRET ?? DEMO_MERCHANT_SECRETS.checkoutSigningSecret,
    merchantApiToken: env.MERCHANT_API_TOKEN ?? DEMO_MERCHANT_SECRETS.merchantApiToken,
    merchantWebhookSecret:
      env.MERCHANT_WEBHOOK_SECRET ?? DEMO_MERCHANT_SECRETS.merchantWebhookSecret,
  };
}
