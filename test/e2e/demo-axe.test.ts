/**
 * @module
 * The demo's own pages (shop, checkout with its merchant panel, merchant view, top-up) pass
 * axe at desktop width and on a 375 px phone: every part of the page sits in a landmark
 * (`region`), headings do not skip levels (`heading-order`, the ledger's headings), and a
 * table wider than the phone scrolls in a region reachable by keyboard
 * (`scrollable-region-focusable`), besides every serious or critical rule.
 */
import { describe, expect, it } from "vitest";
import { ruleViolations, seriousViolations } from "./support/axe.ts";
import { instrumentedContext } from "./support/browser.ts";
import { DEFAULT_CRYPTO } from "./support/journey.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { chooseCurrency } from "./support/widget.ts";

const e2e = useStackAndBrowser();
const RULES = ["region", "heading-order", "scrollable-region-focusable"];
const WIDTHS = [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "375 px", viewport: { width: 375, height: 812 } },
];

describe.each(WIDTHS)("demo pages pass axe at $name", ({ viewport }) => {
  it("shop, checkout (ledger with attempts and activity), merchant, top-up", async () => {
    const order = await e2e.stack.createOrder([{ productId: "pour-over-kit", quantity: 1 }], "USD");
    const context = await instrumentedContext(e2e.browser);
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    const found: Record<string, unknown[]> = {};
    const check = async (name: string) => {
      found[name] = [...(await ruleViolations(page, RULES)), ...(await seriousViolations(page))];
    };

    await page.goto(e2e.stack.urls.shopUrl);
    await page.locator("h1").first().waitFor();
    await check("shop");

    await page.goto(e2e.stack.checkoutUrl(order.invoiceNumber));
    await chooseCurrency(page, DEFAULT_CRYPTO);
    // The ledger's attempts table and activity list: the parts the rules above were about.
    await page.locator("#ledger table").first().waitFor();
    await page.locator("#ledger .activity li").first().waitFor();
    await check("checkout");

    await page.goto(`${e2e.stack.urls.shopUrl}/merchant`);
    await page.locator(".order-card table").first().waitFor();
    await check("merchant");

    await page.goto(`${e2e.stack.urls.shopUrl}/topup`);
    await page
      .locator("crypto-checkout")
      .getByText(/^Top up with /)
      .first()
      .waitFor();
    await check("topup");

    await context.close();
    expect(found).toEqual({ shop: [], checkout: [], merchant: [], topup: [] });
  });
});
