/**
 * @module
 * Driving the sandbox's hosted payment page (hosted mode) as a payer: open it from the widget
 * (a new tab), choose a currency, read what it asks for, and follow where it sends the payer.
 * Also counts the widget's `checkout:paid` events, which the shared instrumentation does not.
 */
import type { BrowserContext, Page } from "playwright-core";
import { widget } from "./widget.ts";

/**
 * Clicks the widget's primary action and returns the payment page's tab once it loaded.
 *
 * @example
 * const pay = await openPaymentPage(page);
 */
export async function openPaymentPage(page: Page): Promise<Page> {
  const [pay] = await Promise.all([
    page.context().waitForEvent("page"),
    widget(page).getByRole("link", { name: "Open payment page" }).click(),
  ]);
  await pay.waitForLoadState();
  return pay;
}

/**
 * Chooses `code` on the payment page; resolves with the exact amount and address it then shows.
 *
 * @example
 * const { amount, address } = await chooseOnPage(pay, "USDT_TRC20");
 */
export async function chooseOnPage(
  pay: Page,
  code: string,
): Promise<{ amount: string; address: string }> {
  await pay.locator(`button[value="${code}"]`).click();
  const amount = (await pay.getByTestId("pay-amount").textContent()) ?? "";
  const address = (await pay.getByTestId("pay-address").textContent()) ?? "";
  // "19.5 USDT": the page shows the ticker, not the code.
  return { amount: amount.split(" ")[0] ?? "", address };
}

/** Counts `checkout:paid` events in every page of the context (`window.__paidEvents`). */
export async function countPaidEvents(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __paidEvents: number };
    w.__paidEvents = 0;
    document.addEventListener("checkout:paid", () => w.__paidEvents++, true);
  });
}

/** How many `checkout:paid` events the page's widget fired. */
export function paidEvents(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __paidEvents?: number }).__paidEvents ?? 0);
}
