/**
 * @module
 * Journey 5: the shopper's connection drops; the payment settles meanwhile; when the network is
 * back the widget catches up to paid by itself (SSE resume or polling), and the merchant still
 * got exactly one `order.paid`.
 *
 * The widget talks to the worker through a proxy the test can cut (the element's documented
 * `api` attribute points it there), and the browser context goes offline at the same time.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sleep } from "../support/wait.ts";
import { instrumentedContext, launchBrowser } from "./support/browser.ts";
import { DEFAULT_CRYPTO, expectOnePaidNotification } from "./support/journey.ts";
import { type CuttableProxy, startCuttableProxy } from "./support/proxy.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { type Stack, startStack } from "./support/stack.ts";
import { waitFor } from "./support/wait.ts";
import {
  chooseCurrency,
  lastSnapshot,
  waitForSnapshot,
  waitForWidgetText,
} from "./support/widget.ts";

let stack: Stack;
let browser: Browser;
let proxy: CuttableProxy;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
  proxy = await startCuttableProxy(stack.ports.worker);
});
afterAll(async () => {
  await proxy?.close();
  await browser?.close();
  await stack?.stop();
});

it("offline while the payment settles → back online → paid, no duplicate notification", async () => {
  const order = await stack.createOrder([{ productId: "pour-over-kit", quantity: 1 }]);
  const context = await instrumentedContext(browser);
  const page = await context.newPage();
  await page.goto(stack.checkoutUrl(order.invoiceNumber));
  await waitForSnapshot(page, {});
  await page
    .locator("crypto-checkout")
    .evaluate((el, api) => el.setAttribute("api", api), proxy.url);
  const snapshot = await chooseCurrency(page, DEFAULT_CRYPTO);

  proxy.cut();
  await context.setOffline(true);
  await sleep(500);

  // Settled while the shopper is offline: the browser cannot see it happen.
  const simulated = await stack.simulate(snapshot.attempt.orderId, "paid");
  expect(simulated.status, JSON.stringify(simulated.body)).toBeLessThan(300);
  await waitFor(
    async () => (await stack.ledger(order.invoiceNumber)).state === "paid",
    "the ledger to say paid",
  );
  await sleep(1500);
  expect((await lastSnapshot(page))?.orderState).not.toBe("paid");

  proxy.restore();
  await context.setOffline(false);
  const paid = await waitForSnapshot(page, { orderState: "paid" }, 30_000);
  expect(paid.attempt.status).toBe("paid");
  await waitForWidgetText(page, /thank you/i);

  await expectOnePaidNotification(stack, order.invoiceNumber);
  await page.locator("#ledger .pill[data-status='paid']").waitFor();
  await saveScreenshot(page, "connection-loss");
  await context.close();
});
