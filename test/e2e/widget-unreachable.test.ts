/**
 * @module
 * A shopper opens the checkout while the worker is down: `widget.js` never arrives, so
 * `<crypto-checkout>` is an undefined, empty element. Seen in Chromium with the demo: a blank
 * "Pay with crypto" card that stayed blank after the worker came back. The storefront now says
 * so after the page's `load` and offers Reload (`demo/storefront/public/widget-load.js`); a
 * reload once the worker answers shows the checkout, and a page whose widget loaded says
 * nothing.
 *
 * No real stack: the storefront runs in-process, and the "worker" is a stub that serves a
 * `widget.js` defining the element (the check is about the script arriving, not the widget).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createShopApp } from "../../demo/merchant/app.ts";
import { loadShopConfig } from "../../demo/merchant/config.ts";
import { launchBrowser } from "./support/browser.ts";
import { saveScreenshot } from "./support/screenshots.ts";

/** A port nothing listens on (yet): the worker, down. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** The worker coming back: serves a `widget.js` that defines `<crypto-checkout>`. */
function startStubWorker(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === "/widget.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(
        `customElements.define("crypto-checkout", class extends HTMLElement {
          connectedCallback() { this.attachShadow({ mode: "open" }).innerHTML = "<p>stub checkout</p>"; }
        });`,
      );
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((r) => server.listen(port, "127.0.0.1", () => r(server)));
}

let browser: Browser;
let shop: ReturnType<typeof serve>;
let shopUrl = "";
let workerPort = 0;
let worker: Server | undefined;

beforeAll(async () => {
  workerPort = await freePort();
  const config = loadShopConfig({
    SHOP_PORT: "0",
    WORKER_URL: `http://127.0.0.1:${workerPort}`,
  });
  const { app } = createShopApp(config);
  await new Promise<void>((r) => {
    shop = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      shopUrl = `http://127.0.0.1:${info.port}`;
      r();
    });
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (worker ? worker.close(() => r()) : r()));
  await new Promise<void>((r) => (shop ? shop.close(() => r()) : r()));
});

it("the checkout opened while the worker is down says so, and a reload once it is back shows the checkout", async () => {
  const created = await fetch(`${shopUrl}/api/orders`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ currency: "USD", items: [{ productId: "enamel-mug", quantity: 1 }] }),
  });
  expect(created.status).toBe(201);
  const { checkoutUrl } = (await created.json()) as { checkoutUrl: string };

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${shopUrl}${checkoutUrl}`);
  const alert = page.locator(".pay [role=alert]");
  await alert.waitFor();
  expect(await alert.textContent()).toBe(
    "The payment form could not load: the checkout service did not answer. Reload",
  );
  await saveScreenshot(page, "widget-unreachable");

  worker = await startStubWorker(workerPort);
  // The page's own check runs in its `load` listeners, before Playwright hears "load".
  await Promise.all([
    page.waitForEvent("load"),
    alert.getByRole("button", { name: "Reload" }).click(),
  ]);
  expect(await page.locator("crypto-checkout").getByText("stub checkout").count()).toBe(1);
  expect(await page.locator(".pay [role=alert]").count()).toBe(0);
  await page.close();
});
