/**
 * @module
 * Journey 2: the shopper pays part of the amount (the widget says how much is still due), then
 * the rest; the order turns paid and the ledger's payments sum exactly to the order amount.
 */
import { expect, it } from "vitest";
import {
  DEFAULT_CRYPTO,
  expectOnePaidNotification,
  openCheckout,
  sumFiat,
} from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitFor } from "./support/wait.ts";
import { waitForSnapshot, waitForWidgetText } from "./support/widget.ts";

const e2e = useStackAndBrowser();

it("partial, then the rest → paid; the ledger sums exactly", async () => {
  const { page, order, snapshot, context } = await openCheckout(e2e.stack, e2e.browser, {
    items: [
      { productId: "ethiopia-guji", quantity: 1 },
      { productId: "enamel-mug", quantity: 1 },
    ],
    crypto: DEFAULT_CRYPTO,
  });
  expect(order.amount).toBe("30.75");
  const due = snapshot.attempt.payment!.remaining;

  // The panel's "Half" fills in exactly half of what is due (integer maths on the decimal).
  await page.getByRole("button", { name: "Half" }).click();
  const half = await page.getByLabel(/partial amount/i).inputValue();
  expect(half).not.toBe("");
  await page.getByRole("button", { name: "Pay partially" }).click();

  const partial = await waitForSnapshot(page, { orderState: "partially_paid" });
  expect(partial.attempt.status).toBe("partially_paid");
  expect(partial.attempt.payment!.remaining).not.toBe(due);
  expect(partial.amountDue).not.toBe("0.00");
  await waitForWidgetText(page, new RegExp(partial.attempt.payment!.remaining.replace(".", "\\.")));
  await page.locator("#ledger .pill[data-status='partially_paid']").waitFor();
  await saveScreenshot(page, "partial-payment");

  await page.getByRole("button", { name: "Paid in full" }).click();
  const paid = await waitForSnapshot(page, { orderState: "paid" });
  expect(paid.amountPaid).toBe("30.75");
  expect(paid.amountDue).toBe("0.00");
  await waitForWidgetText(page, /thank you/i);

  const ledger = await waitFor(async () => {
    const l = await e2e.stack.ledger(order.invoiceNumber);
    return l.state === "paid" && l;
  }, "the ledger to say paid");
  expect(ledger.amountPaid).toBe("30.75");
  expect(ledger.amountDue).toBe("0.00");
  const payments = ledger.payments as { fiatAmount: string }[];
  expect(payments.length).toBeGreaterThanOrEqual(2);
  expect(sumFiat(payments.map((p) => p.fiatAmount))).toBe("30.75");
  await expectOnePaidNotification(e2e.stack, order.invoiceNumber);

  await page.locator("#ledger .pill[data-status='paid']").waitFor();
  await saveScreenshot(page, "partial-then-paid");
  await context.close();
});
