/**
 * @module
 * What the shopper sees between "choose a currency" and the end: the picker, the payment
 * instructions, payment detected (`processing`), under review (`suspended`) and a failed
 * attempt with its way out ("Try again"); then the same instructions in the dark theme and in
 * Arabic (right to left), and in Hebrew on a 375 px phone (right to left, nothing cut). Each state is asserted, then saved as a picture of the widget.
 */
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
  await saveScreenshot(widget(page), "state-hebrew-375");
  await saveScreenshot(page, "state-hebrew-375-page");
  await context.close();
});
