/**
 * @module
 * What the shopper sees between "choose a currency" and the end: the picker, the payment
 * instructions, payment detected (`processing`), under review (`suspended`) and a failed
 * attempt with its way out ("Try again"); then the same instructions in the dark theme and in
 * Arabic (right to left), and in Hebrew on a 375 px phone (right to left, nothing cut). Each state is asserted, then saved as a picture of the widget.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { he } from "../../widget/i18n/he.ts";
import { DEFAULT_CRYPTO, openCheckout } from "./support/journey.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import {
  chooseCurrency,
  currencyButton,
  waitForSnapshot,
  waitForWidgetText,
  widget,
} from "./support/widget.ts";

const e2e = useStackAndBrowser();

/**
 * Where the "Send exactly" amount's first digit and its ticker sit on screen, left to right
 * (in RTL, without a left-to-right isolate, "42 USDT" is laid out as "USDT 42").
 */
function amountLayout(page: Page) {
  return widget(page).evaluate((el) => {
    const value = el.shadowRoot?.querySelector("code.value");
    const text = value?.firstChild;
    if (!text?.textContent) throw new Error("no amount shown");
    const at = (index: number) => {
      const range = document.createRange();
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      return range.getBoundingClientRect().left;
    };
    const content = text.textContent;
    const digit = content.search(/\p{Nd}/u);
    const ticker = content.search(/\p{Lu}/u);
    return { digitLeft: at(digit), tickerLeft: at(ticker), text: content };
  });
}

it("walks picker → instructions → detected → under review → failed, with a way out", async () => {
  const { page, context } = await openCheckout(e2e.stack, e2e.browser);
  await (await currencyButton(page, DEFAULT_CRYPTO)).waitFor();
  await saveScreenshot(widget(page), "state-currency-picker");

  const snapshot = await chooseCurrency(page, DEFAULT_CRYPTO);
  const payment = snapshot.attempt.payment!;
  await waitForWidgetText(page, new RegExp(payment.address));
  await saveScreenshot(widget(page), "state-instructions");

  const steps = [
    { action: "processing", status: "processing", text: /payment detected/i },
    { action: "suspend", status: "suspended", text: /under review/i },
    { action: "fail", status: "failed", text: /failed/i },
  ];
  for (const step of steps) {
    const simulated = await e2e.stack.simulate(snapshot.attempt.orderId, step.action);
    expect(simulated.status, JSON.stringify(simulated.body)).toBeLessThan(300);
    const seen = await waitForSnapshot(page, { status: step.status });
    expect(seen.orderState).toBe("unpaid");
    await waitForWidgetText(page, step.text);
    await saveScreenshot(widget(page), `state-${step.status}`);
  }
  // A failed attempt offers the next one.
  await widget(page).getByRole("button", { name: "Try again" }).waitFor();
  await context.close();
});

it("shows the instructions in the dark theme and in Arabic, right to left", async () => {
  const { page, context } = await openCheckout(e2e.stack, e2e.browser, {
    crypto: DEFAULT_CRYPTO,
  });
  await widget(page).evaluate((el) => {
    el.setAttribute("theme", "dark");
    el.setAttribute("locale", "ar");
  });
  await waitForWidgetText(page, /أرسل دفعتك/);
  const direction = await widget(page).evaluate(
    (el) => getComputedStyle(el.shadowRoot?.firstElementChild ?? el).direction,
  );
  expect(direction).toBe("rtl");
  // "42 USDT" stays in that order inside the Arabic text (the amount left of its ticker).
  const amount = await amountLayout(page);
  expect(amount.digitLeft, amount.text).toBeLessThan(amount.tickerLeft);
  await saveScreenshot(widget(page), "state-dark-arabic");
  await context.close();
});

it("shows the instructions in Hebrew on a 375 px phone, right to left, nothing wider than the screen", async () => {
  const { page, context } = await openCheckout(e2e.stack, e2e.browser, {
    crypto: DEFAULT_CRYPTO,
  });
  await page.setViewportSize({ width: 375, height: 900 });
  await widget(page).evaluate((el) => el.setAttribute("locale", "he"));
  await waitForWidgetText(page, new RegExp(he.payTitle));
  const layout = await widget(page).evaluate((el) => ({
    direction: getComputedStyle(el.shadowRoot?.firstElementChild ?? el).direction,
    width: el.getBoundingClientRect().width,
    page: document.documentElement.scrollWidth,
  }));
  expect(layout.direction).toBe("rtl");
  expect(layout.page).toBeLessThanOrEqual(375);
  const amount = await amountLayout(page);
  expect(amount.digitLeft, amount.text).toBeLessThan(amount.tickerLeft);
  await saveScreenshot(widget(page), "state-hebrew-375");
  await saveScreenshot(page, "state-hebrew-375-page");
  await context.close();
});

it("on a 375 px phone: picker → instructions → paid, each within the screen", async () => {
  const { page, context } = await openCheckout(e2e.stack, e2e.browser);
  await page.setViewportSize({ width: 375, height: 900 });
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth);
  await (await currencyButton(page, DEFAULT_CRYPTO)).waitFor();
  expect(await fits()).toBeLessThanOrEqual(375);
  await saveScreenshot(widget(page), "phone-picker");

  const snapshot = await chooseCurrency(page, DEFAULT_CRYPTO);
  await waitForWidgetText(page, new RegExp(snapshot.attempt.payment!.address));
  expect(await fits()).toBeLessThanOrEqual(375);
  await saveScreenshot(widget(page), "phone-instructions");

  const paid = await e2e.stack.simulate(snapshot.attempt.orderId, "paid");
  expect(paid.status, JSON.stringify(paid.body)).toBeLessThan(300);
  expect((await waitForSnapshot(page, { status: "paid" })).orderState).toBe("paid");
  await waitForWidgetText(page, /paid/i);
  expect(await fits()).toBeLessThanOrEqual(375);
  await saveScreenshot(widget(page), "phone-paid");
  await context.close();
});
