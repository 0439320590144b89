/**
 * @module
 * Journey 6: the same checkout open in two tabs; one webhook turns both paid (one SSE fan-out),
 * and the merchant gets one `order.paid`.
 */
import { expect, it } from "vitest";
import { DEFAULT_CRYPTO, expectOnePaidNotification, openCheckout } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitForSnapshot, waitForWidgetText } from "./support/widget.ts";

const e2e = useStackAndBrowser();

it("two tabs on one checkout both turn paid from one webhook", async () => {
  const {
    page: first,
    order,
    snapshot,
    context,
  } = await openCheckout(e2e.stack, e2e.browser, { crypto: DEFAULT_CRYPTO });
  const second = await context.newPage();
  await second.goto(e2e.stack.checkoutUrl(order.invoiceNumber));
  const seen = await waitForSnapshot(second, { hasPayment: true });
  expect(seen.id).toBe(snapshot.id);
  expect(seen.attempt.orderId).toBe(snapshot.attempt.orderId);

  const simulated = await e2e.stack.simulate(snapshot.attempt.orderId, "paid");
  expect(simulated.status, JSON.stringify(simulated.body)).toBeLessThan(300);
  const [a, b] = await Promise.all([
    waitForSnapshot(first, { orderState: "paid" }),
    waitForSnapshot(second, { orderState: "paid" }),
  ]);
  expect(a.seq).toBe(b.seq);
  await Promise.all([
    waitForWidgetText(first, /thank you/i),
    waitForWidgetText(second, /thank you/i),
  ]);

  await expectOnePaidNotification(e2e.stack, order.invoiceNumber);
  await second.bringToFront();
  await second.locator("#ledger .pill[data-status='paid']").waitFor();
  await saveScreenshot(second, "two-tabs");
  await context.close();
});
