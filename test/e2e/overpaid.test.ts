/**
 * @module
 * Journey 4: the shopper sends more than asked; the order is paid and the widget explains the
 * overpayment; the ledger records the fiat overpaid.
 */
import { expect, it } from "vitest";
import { DEFAULT_CRYPTO, expectOnePaidNotification, openCheckout } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitFor } from "./support/wait.ts";
import { waitForSnapshot, waitForWidgetText } from "./support/widget.ts";

const e2e = useStackAndBrowser();

it("overpaid → paid, and the widget explains the extra", async () => {
  const { page, order, context } = await openCheckout(e2e.stack, e2e.browser, {
    crypto: DEFAULT_CRYPTO,
  });
  await page.getByRole("button", { name: "Overpaid" }).click();
  const paid = await waitForSnapshot(page, { orderState: "paid" });
  expect(paid.attempt.status).toBe("overpaid");
  expect(paid.amountOverpaid).not.toBe("0");
  expect(paid.amountOverpaid).not.toBe("0.00");
  await waitForWidgetText(page, /more than needed/i);

  const ledger = await waitFor(async () => {
    const l = await e2e.stack.ledger(order.invoiceNumber);
    return l.state === "paid" && l;
  }, "the ledger to say paid");
  expect(ledger.amountOverpaid).toBe(paid.amountOverpaid);
  expect(ledger.amountDue).toBe("0.00");
  await expectOnePaidNotification(e2e.stack, order.invoiceNumber);
  await page.locator("#ledger .pill[data-status='paid']").waitFor();
  await saveScreenshot(page, "overpaid");
  await context.close();
});
