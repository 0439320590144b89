/**
 * @module
 * Journey 1: a shopper fills a cart in EUR, opens the checkout, picks a crypto currency, sees
 * amount, address and QR; the sandbox settles the invoice and the widget turns paid without a
 * reload; the worker's ledger says paid; the merchant backend got exactly one `order.paid`.
 * Also: axe finds no serious or critical violations on the shop and checkout pages.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { collectPageErrors, instrumentedContext } from "./support/browser.ts";
import { DEFAULT_CRYPTO, expectOnePaidNotification, openCheckout } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitFor } from "./support/wait.ts";
import {
  chooseCurrency,
  waitForSnapshot,
  waitForWidgetText,
  widget,
  widgetText,
} from "./support/widget.ts";

/** The product card's button: visible "Add to cart", the product named for screen readers. */
const addToCart = (page: Page, product: string) =>
  page.getByRole("button", { name: new RegExp(`^Add to cart\\W+${product}$`) }).click();

const e2e = useStackAndBrowser();

describe("pay in full", () => {
  it("cart → checkout → currency → paid, live, with one merchant notification", async () => {
    const context = await instrumentedContext(e2e.browser);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(e2e.stack.urls.shopUrl);
    await addToCart(page, "House Blend, 250 g");
    await addToCart(page, "Enamel mug");
    await page.getByRole("button", { name: "Add one Enamel mug" }).click();
    await page.locator(".segment", { hasText: "EUR" }).click();
    // 13.90 + 2 × 10.50, in EUR
    expect(await page.locator("#cart-total").textContent()).toBe("€34.90");
    await page.getByRole("button", { name: "Pay with crypto" }).click();
    await page.waitForURL(/\/checkout\//);
    const invoiceNumber = (await page.getByTestId("invoice-number").textContent()) ?? "";
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    const snapshot = await chooseCurrency(page, DEFAULT_CRYPTO);
    expect(snapshot.invoiceNumber).toBe(invoiceNumber);
    expect(snapshot.amount).toBe("34.90");
    expect(snapshot.currency).toBe("EUR");
    const payment = snapshot.attempt.payment!;
    const shown = await widgetText(page);
    expect(shown).toContain(payment.address);
    expect(shown).toContain(payment.amount);
    expect(await widget(page).getByRole("img", { name: /qr/i }).count()).toBeGreaterThan(0);

    // "Paid" must arrive over SSE: a snapshot poll (`GET /v1/checkouts/:id`) would mean the
    // widget fell back to polling, which would hide a broken event stream.
    const polls: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() === "GET" && /^\/v1\/checkouts\/[^/]+$/.test(pathname))
        polls.push(pathname);
    });
    // The sandbox panel beside the checkout: the service's "Simulate payment".
    await page.locator("#current-invoice", { hasText: snapshot.attempt.orderId }).waitFor();
    await page.getByRole("button", { name: "Paid in full" }).click();
    const paid = await waitForSnapshot(page, { orderState: "paid" });
    expect(paid.attempt.status).toBe("paid");
    expect(paid.amountDue).toBe("0.00");
    await waitForWidgetText(page, /thank you/i);
    expect(polls).toEqual([]);
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);

    const ledger = await waitFor(async () => {
      const l = await e2e.stack.ledger(invoiceNumber);
      return l.state === "paid" && l;
    }, "the ledger to say paid");
    expect(ledger.amountPaid).toBe("34.90");
    expect(ledger.amountDue).toBe("0.00");

    await expectOnePaidNotification(e2e.stack, invoiceNumber);

    await page.locator("#ledger .pill[data-status='paid']").waitFor();
    await page.locator("#notifications [data-type='order.paid']").waitFor();
    await saveScreenshot(page, "pay-in-full");
    expect(errors.filter((e) => e.startsWith("pageerror"))).toEqual([]);
    await context.close();
  });

  it("has no serious or critical accessibility violations (shop, checkout with instructions)", async () => {
    const context = await instrumentedContext(e2e.browser);
    const page = await context.newPage();
    await page.goto(e2e.stack.urls.shopUrl);
    await addToCart(page, "Pour-over kit");
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    const { page: checkout, context: checkoutContext } = await openCheckout(
      e2e.stack,
      e2e.browser,
      {
        crypto: DEFAULT_CRYPTO,
      },
    );
    await checkout.locator("#ledger dl, #ledger p").first().waitFor();
    expect(await seriousViolations(checkout)).toEqual([]);
    // The same payment instructions in the dark theme: contrast holds there too.
    await checkout.locator("crypto-checkout").evaluate((el) => el.setAttribute("theme", "dark"));
    await checkout
      .locator("crypto-checkout")
      .getByText(/Send only/)
      .waitFor();
    expect(
      await checkout
        .locator("crypto-checkout")
        .evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector(".card")!).backgroundColor),
    ).toBe("rgb(21, 24, 29)");
    expect(await seriousViolations(checkout)).toEqual([]);
    await checkoutContext.close();
  });
});
