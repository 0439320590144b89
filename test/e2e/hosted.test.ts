/**
 * @module
 * Hosted mode, the real service's path (`npm run demo -- --hosted`: the sandbox serves the
 * public API only, so the worker finds no currency lock). Each journey follows both the
 * widget and the service's payment page: the payer opens the page from the widget, chooses a
 * currency there (no webhook), the widget learns the choice by the worker's reads while it
 * watches, the sandbox settles, both show the outcome, and the page sends the payer back.
 * Journeys: pay in full; partial, then the rest; expired, then try again.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { collectPageErrors, instrumentedContext } from "./support/browser.ts";
import {
  chooseOnPage,
  countPaidEvents,
  openPaymentPage,
  paidEvents,
} from "./support/hosted-page.ts";
import { expectOnePaidNotification } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitForSnapshot, waitForWidgetText, widget, widgetText } from "./support/widget.ts";

const e2e = useStackAndBrowser({ hosted: true });
const CRYPTO = "USDT_TRC20";
/** The worker reads a watched invoice at least every 15 s: the choice arrives within that. */
const RECONCILED = 30_000;

async function openHostedCheckout(productId = "pour-over-kit") {
  const order = await e2e.stack.createOrder([{ productId, quantity: 1 }], "USD");
  const context = await instrumentedContext(e2e.browser);
  await countPaidEvents(context);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(e2e.stack.checkoutUrl(order.invoiceNumber));
  const snapshot = await waitForSnapshot(page, {});
  expect(snapshot.mode).toBe("hosted");
  expect(snapshot.attempt.payment).toBeNull();
  return { order, context, page, errors, snapshot };
}

/** The payer chooses on the page; the widget then shows the same amount and address. */
async function chooseAndSeeInWidget(page: Page, pay: Page) {
  const chosen = await chooseOnPage(pay, CRYPTO);
  const snapshot = await waitForSnapshot(page, { hasPayment: true }, RECONCILED);
  expect(snapshot.attempt.payment).toMatchObject({
    cryptoCurrencyCode: CRYPTO,
    amount: chosen.amount,
    address: chosen.address,
  });
  const shown = await waitForWidgetText(page, /Send exactly/);
  expect(shown).toContain(chosen.address);
  return { chosen, snapshot };
}

describe("hosted mode (the service's payment page)", () => {
  it("pay in full: widget → page → choose → paid in both; the page sends the payer to successUrl", async () => {
    const { order, context, page, errors } = await openHostedCheckout();
    // No currency picker: the payment page is the primary action, and a QR code for a phone.
    // (the in-page picker is the region named by its "Choose how you pay" heading)
    expect(await widget(page).getByRole("region", { name: "Choose how you pay" }).count()).toBe(0);
    await widget(page).getByRole("button", { name: "Pay on your phone" }).click();
    await widget(page)
      .getByRole("img", { name: /Scan to open the payment page/ })
      .waitFor();
    await saveScreenshot(page, "hosted-widget");

    const pay = await openPaymentPage(page);
    expect(await pay.locator("h1").textContent()).toBe(`${order.amount} USD`);
    await pay.getByRole("heading", { name: "Choose a currency" }).waitFor();
    await saveScreenshot(pay, "hosted-page-choose");
    const { chosen } = await chooseAndSeeInWidget(page, pay);
    await pay.getByRole("img", { name: /QR code of the address/ }).waitFor();
    await saveScreenshot(pay, "hosted-page-instructions");
    // One QR code once chosen: the payment's own; the page's link is no longer a code.
    await expect
      .poll(() =>
        widget(page)
          .getByRole("img", { name: /Scan to open the payment page/ })
          .count(),
      )
      .toBe(0);
    expect(
      await widget(page)
        .getByRole("img", { name: /^QR code: pay/ })
        .count(),
    ).toBe(1);
    await saveScreenshot(page, "hosted-chosen");
    // The widget's instructions are the page's, and the choice sent no webhook.
    expect(await widgetText(page)).toContain(chosen.amount);

    await page.getByRole("button", { name: "Paid in full" }).click();
    const paid = await waitForSnapshot(page, { orderState: "paid" });
    expect(paid.amountDue).toBe("0.00");
    await waitForWidgetText(page, /thank you/i);
    // The page sees it live and sends the payer back to the shop's successUrl.
    await pay.waitForURL(/\/\?order=/, { timeout: 20_000 });
    await pay.getByText(`Order ${order.invoiceNumber} is paid`).waitFor();
    await saveScreenshot(pay, "hosted-page-returned");
    expect(await paidEvents(page)).toBe(1);
    await expectOnePaidNotification(e2e.stack, order.invoiceNumber);
    await page.locator("#ledger .pill[data-status='paid']").waitFor();
    await saveScreenshot(page, "hosted-pay-in-full");
    expect(errors.filter((e) => e.startsWith("pageerror"))).toEqual([]);
    await context.close();
  });

  it("partial, then the rest: the page sends the payer to failedUrl, the widget asks for the rest", async () => {
    const { order, context, page } = await openHostedCheckout("house-blend");
    const pay = await openPaymentPage(page);
    const { snapshot } = await chooseAndSeeInWidget(page, pay);
    const orderId = snapshot.attempt.orderId;
    const half = (Number(snapshot.attempt.payment!.amount) / 2).toFixed(2);
    expect((await e2e.stack.simulate(orderId, "partial", half)).status).toBe(200);
    const partial = await waitForSnapshot(page, { status: "partially_paid" });
    expect(partial.attempt.payment!.received).toBe(half);
    await waitForWidgetText(page, /Send the remaining/);
    // failedUrl: the demo shop sends the payer back to the order's checkout, which says the same.
    await pay.waitForURL(`**/checkout/${order.invoiceNumber}`, { timeout: 20_000 });
    await waitForWidgetText(pay, new RegExp(`Received ${half.replace(".", "\\.")}`));
    await saveScreenshot(pay, "hosted-partial-returned");
    await saveScreenshot(page, "hosted-partial");

    expect((await e2e.stack.simulate(orderId, "paid")).status).toBe(200);
    const paid = await waitForSnapshot(page, { orderState: "paid" });
    expect(paid.attempt.orderId).toBe(orderId);
    await waitForWidgetText(page, /thank you/i);
    await waitForWidgetText(pay, /thank you/i);
    const ledger = await e2e.stack.ledger(order.invoiceNumber);
    expect(ledger.state).toBe("paid");
    expect(ledger.amountPaid).toBe(order.amount);
    expect(await paidEvents(page)).toBe(1);
    await expectOnePaidNotification(e2e.stack, order.invoiceNumber);
    await context.close();
  });

  it("expired, then try again: the page sends the payer to returnUrl; attempt -2 has its own page", async () => {
    const { order, context, page, snapshot } = await openHostedCheckout("enamel-mug");
    const pay = await openPaymentPage(page);
    await chooseAndSeeInWidget(page, pay);
    await page.getByRole("button", { name: "Expire" }).click();
    const expired = await waitForSnapshot(page, { status: "expired" });
    expect(expired.canRetry).toBe(true);
    await waitForWidgetText(page, /expired/i);
    // returnUrl: the shop, which reads the ledger and offers the way back to pay.
    await pay.waitForURL(/\/\?order=/, { timeout: 20_000 });
    await pay.getByText(`Order ${order.invoiceNumber} is not paid yet.`).waitFor();
    await saveScreenshot(pay, "hosted-expired-returned");
    await saveScreenshot(page, "hosted-expired");

    await widget(page)
      .getByRole("button", { name: /try again/i })
      .click();
    const retried = await waitForSnapshot(page, { attemptNumber: 2 });
    expect(retried.attempt.orderId).toBe(`${snapshot.attempt.orderId}-2`);
    expect(retried.attempt.paymentPageUrl).not.toBe(snapshot.attempt.paymentPageUrl);
    expect(retried.attempt.payment).toBeNull();
    const second = await openPaymentPage(page);
    expect(second.url()).toBe(retried.attempt.paymentPageUrl);
    await chooseAndSeeInWidget(page, second);
    await page.getByRole("button", { name: "Paid in full" }).click();
    await waitForSnapshot(page, { orderState: "paid" });
    await second.waitForURL(/\/\?order=/, { timeout: 20_000 });
    const ledger = await e2e.stack.ledger(order.invoiceNumber);
    const attempts = ledger.attempts as { orderId: string; status: string }[];
    expect(attempts.map((a) => a.status)).toEqual(["expired", "paid"]);
    await page.locator("#ledger td", { hasText: `${snapshot.attempt.orderId}-2` }).waitFor();
    await saveScreenshot(page, "hosted-expired-retry");
    expect(await paidEvents(page)).toBe(1);
    await context.close();
  });
});
