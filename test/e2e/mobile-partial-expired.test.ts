/**
 * @module
 * A shopper on a phone (360 px wide) pays part, reloads the page, and lets the window close:
 * the page never scrolls sideways, the reopened checkout (a later state, whose texts come with
 * `payment.js`) says what was received, and once the window closed it says so and what is
 * still due beside *Try again*.
 */
import { expect, it } from "vitest";
import { DEFAULT_CRYPTO, openCheckout } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitForSnapshot, waitForWidgetText, widget } from "./support/widget.ts";

const e2e = useStackAndBrowser();

/** How far the page reaches beyond the viewport, in CSS pixels (0: no sideways scroll). */
const sideways = (page: import("playwright-core").Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

it("on a phone: partial, reload, expired → the rest due is named beside Try again; no sideways scroll", async () => {
  const { page, context } = await openCheckout(e2e.stack, e2e.browser, { crypto: DEFAULT_CRYPTO });
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await sideways(page)).toBe(0);

  await page.getByRole("button", { name: "Half" }).click();
  await page.getByRole("button", { name: "Pay partially" }).click();
  const partial = await waitForSnapshot(page, { orderState: "partially_paid" });
  const { received, amount } = partial.attempt.payment!;
  // The ledger's tables are the page's widest content: they scroll inside their card.
  await page.locator("#ledger .pill[data-status='partially_paid']").waitFor();
  expect(await sideways(page)).toBe(0);

  // Reopened mid-payment, the checkout renders its later state's status line again.
  await page.reload();
  await waitForWidgetText(
    page,
    new RegExp(`Received ${received.replace(".", "\\.")} of ${amount}`),
  );

  await page.getByRole("button", { name: "Expire" }).click();
  const ended = await waitForSnapshot(page, { canRetry: true });
  expect(ended.attempt.status).toBe("partially_paid");
  await waitForWidgetText(
    page,
    new RegExp(
      `before this payment window closed\\. Try again to pay the \\$${ended.amountDue} still due\\.`,
    ),
  );
  await widget(page).getByRole("button", { name: "Try again" }).waitFor();
  expect(await sideways(page)).toBe(0);
  await saveScreenshot(page, "mobile-partial-expired");
  await context.close();
});
