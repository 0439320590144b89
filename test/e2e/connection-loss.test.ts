/**
 * @module
 * Journey 5: the shopper's connection drops; the payment settles meanwhile; when the browser is
 * back online the widget catches up to paid by itself (SSE resume / refetch), and the merchant
 * still got exactly one `order.paid`.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchBrowser } from "./support/browser.ts";
import { DEFAULT_CRYPTO, openCheckout, paidNotifications, sleep } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { type Stack, startStack } from "./support/stack.ts";
import { waitFor } from "./support/wait.ts";
import { lastSnapshot, waitForSnapshot, waitForWidgetText } from "./support/widget.ts";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it("offline while the payment settles → back online → paid, no duplicate notification", async () => {
  const { page, order, snapshot, context } = await openCheckout(stack, browser, {
    crypto: DEFAULT_CRYPTO,
  });
  await context.setOffline(true);
  await sleep(1000);

  // Settled while the shopper is offline: the browser cannot see it happen.
  const simulated = await stack.simulate(snapshot.attempt.orderId, "paid");
  expect(simulated.status, JSON.stringify(simulated.body)).toBeLessThan(300);
  await waitFor(
    async () => (await stack.ledger(order.invoiceNumber)).state === "paid",
    "the ledger to say paid",
  );
  await sleep(1500);
  expect((await lastSnapshot(page))?.orderState).not.toBe("paid");

  await context.setOffline(false);
  const paid = await waitForSnapshot(page, { orderState: "paid" }, 30_000);
  expect(paid.attempt.status).toBe("paid");
  await waitForWidgetText(page, /paid/i);

  await sleep(2000);
  expect(await paidNotifications(stack, order.invoiceNumber)).toHaveLength(1);
  await saveScreenshot(page, "connection-loss");
  await context.close();
});
