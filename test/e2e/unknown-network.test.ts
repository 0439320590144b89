/**
 * @module
 * A currency on a network the worker does not know (the service adds networks over time): the
 * sandbox serves one (`SANDBOX_EXTRA_CURRENCY=USDT_TON:TON`); the shopper finds it under its
 * network with its name, and pays it by copying the address or scanning the QR code of the
 * address: no wallet link, and no link on the page is relative.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { instrumentedContext } from "./support/browser.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { chooseCurrency, currencyButton, waitForWidgetText, widget } from "./support/widget.ts";

// Read by the sandbox the stack starts (children inherit the environment).
beforeAll(() => {
  process.env.SANDBOX_EXTRA_CURRENCY = "USDT_TON:TON";
});
const e2e = useStackAndBrowser();
afterAll(() => {
  delete process.env.SANDBOX_EXTRA_CURRENCY;
});

it("lists it with its name and network and pays it by copy and QR of the address", async () => {
  const order = await e2e.stack.createOrder([{ productId: "pour-over-kit", quantity: 1 }], "USD");
  const context = await instrumentedContext(e2e.browser);
  const page = await context.newPage();
  await page.goto(e2e.stack.checkoutUrl(order.invoiceNumber));
  const button = await currencyButton(page, "USDT_TON");
  expect(await button.textContent()).toContain("Tether USD (TON)");
  const snapshot = await chooseCurrency(page, "USDT_TON");
  const payment = snapshot.attempt.payment!;
  expect(payment.walletUri).toBeNull();
  expect(payment.networkName).toBe("TON");
  await waitForWidgetText(page, /Send only Tether USD \(TON\) on the TON network/);
  const w = widget(page);
  expect(await w.getByText(payment.address, { exact: true }).count()).toBe(1);
  expect(await w.getByRole("button", { name: "Copy the address" }).count()).toBe(1);
  await w.locator(".qr svg path").waitFor();
  expect(await w.getByRole("link", { name: "Open in wallet" }).count()).toBe(0);
  const hrefs = await page.evaluate(() =>
    [...document.querySelectorAll("crypto-checkout")].flatMap((el) =>
      [...(el.shadowRoot?.querySelectorAll("a") ?? [])].map((a) => a.getAttribute("href") ?? ""),
    ),
  );
  for (const href of hrefs) expect(href).toMatch(/^(https?|bitcoin|ethereum):/);
  await saveScreenshot(w, "unknown-network");
  await context.close();
});
