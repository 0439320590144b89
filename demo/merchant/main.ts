/**
 * @module
 * Runs the storefront + demo merchant backend on 127.0.0.1 (`SHOP_PORT`, default 5173).
 * `npm run demo` starts it for you; alone: `node demo/merchant/main.ts`.
 */
import { serve } from "@hono/node-server";
import { createShopApp } from "./app.ts";
import { loadShopConfig } from "./config.ts";

const config = loadShopConfig(process.env);
const { app } = createShopApp(config);
const server = serve({ fetch: app.fetch, port: config.port, hostname: "127.0.0.1" }, (info) => {
  console.log(`storefront listening on http://127.0.0.1:${info.port}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    // Open keep-alive and polling connections must not hold the exit up.
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
