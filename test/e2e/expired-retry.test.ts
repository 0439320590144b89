/**
 * @module
 * Journey 3: the invoice expires; the widget offers to try again; the new attempt is a new
 * upstream invoice whose orderId ends in `-2`, for the same order.
 */
import { expect, it } from "vitest";
import { DEFAULT_CRYPTO, openCheckout } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitForSnapshot, waitForWidgetText, widget } from "./support/widget.ts";

const e2e = useStackAndBrowser();

it("expired → try again → attempt 2 with orderId ending in -2", async () => {
  const { page, order, snapshot, context } = await openCheckout(e2e.stack, e2e.browser, {
    crypto: DEFAULT_CRYPTO,
  });
  const firstOrderId = snapshot.attempt.orderId;
  expect(firstOrderId.endsWith(order.invoiceNumber)).toBe(true);

  // An amount typed for the open attempt; after Expire it is stale, and nothing is due.
  await page.locator("#partial-amount").fill("1");
  await page.getByRole("button", { name: "Expire" }).click();
  const expired = await waitForSnapshot(page, { status: "expired" });
  await page.locator("#partial-unit", { hasText: "nothing due: the attempt expired" }).waitFor();
  expect(await page.locator("#partial-amount").inputValue()).toBe("");
  expect(await page.locator("#partial-half").isDisabled()).toBe(true);
  expect(expired.canRetry).toBe(true);
  expect(expired.orderState).toBe("unpaid");
  await waitForWidgetText(page, /expired/i);
  await widget(page)
    .getByRole("button", { name: /try again/i })
    .waitFor();
  await page.locator("#ledger td", { hasText: "expired" }).waitFor();
  await saveScreenshot(page, "expired");

  await widget(page)
    .getByRole("button", { name: /try again/i })
    .click();
  const retried = await waitForSnapshot(page, { attemptNumber: 2 });
  expect(retried.attempt.orderId).toBe(`${firstOrderId}-2`);
  expect(retried.attempt.orderId.endsWith("-2")).toBe(true);
  expect(retried.attempt.status).toBe("created");
  expect(retried.invoiceNumber).toBe(order.invoiceNumber);
  await page.locator("#current-invoice", { hasText: `${firstOrderId}-2` }).waitFor();

  const ledger = await e2e.stack.ledger(order.invoiceNumber);
  const attempts = ledger.attempts as { orderId: string; status: string }[];
  expect(attempts.map((a) => a.orderId)).toEqual([firstOrderId, `${firstOrderId}-2`]);
  expect(attempts[0]!.status).toBe("expired");
  await page.locator("#ledger td", { hasText: `${firstOrderId}-2` }).waitFor();
  await saveScreenshot(page, "expired-retry");
  await context.close();
});
