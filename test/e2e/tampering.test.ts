/**
 * @module
 * Journey 7: a checkout token whose amount was edited in the browser, or one signed with a
 * wrong key, shows the shopper a clear error and creates no upstream invoice.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { mintCheckoutToken } from "../../worker/token/mint.ts";
import { instrumentedContext, launchBrowser } from "./support/browser.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { type Stack, startStack } from "./support/stack.ts";
import { waitForWidgetText } from "./support/widget.ts";

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const b64url = (text: string) => Buffer.from(text).toString("base64url");

/** The token the shop minted for an order, as its checkout page carries it. */
async function realToken(invoiceNumber: string): Promise<string> {
  const page = await (await fetch(stack.checkoutUrl(invoiceNumber))).text();
  const token = /<crypto-checkout token="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error("no token on the checkout page");
  return token;
}

/** Same header and signature, amount edited: what a shopper editing the page could do. */
function withEditedAmount(token: string, amount: string): string {
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
  return [header, b64url(JSON.stringify({ ...claims, amount })), signature].join(".");
}

/** Shows `token` in the widget on a page of the shop's origin (so CORS lets it through). */
async function showToken(token: string, name: string) {
  const context = await instrumentedContext(browser);
  const page = await context.newPage();
  const url = `${stack.urls.shopUrl}/__e2e/${name}`;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><head><title>${name}</title>
<link rel="stylesheet" href="/assets/style.css">
<script src="${stack.urls.workerUrl}/widget.js" async></script></head>
<body><main><section class="card pay"><h1>Pay with crypto</h1><crypto-checkout token="${token}"></crypto-checkout></section></main></body></html>`,
    }),
  );
  await page.goto(url);
  return { context, page };
}

async function invoiceRequests(): Promise<number> {
  return (await stack.sandboxRequests("/invoice")).filter((r) => r.method === "POST").length;
}

it("an edited amount is refused: clear error, no invoice", async () => {
  const order = await stack.createOrder([{ productId: "pour-over-kit", quantity: 1 }]);
  const forged = withEditedAmount(await realToken(order.invoiceNumber), "0.01");
  const before = await invoiceRequests();

  const direct = await fetch(`${stack.urls.workerUrl}/v1/checkouts`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: stack.urls.shopUrl },
    body: JSON.stringify({ token: forged }),
  });
  expect(direct.status).toBe(401);
  expect(((await direct.json()) as { error: { code: string } }).error.code).toBe("token_invalid");

  const { context, page } = await showToken(forged, "edited-amount");
  await waitForWidgetText(page, /invalid|not valid|could not|can't|cannot|error/i);
  expect(await invoiceRequests()).toBe(before);
  await saveScreenshot(page, "tampered-amount");
  await context.close();
});

it("a forged signature is refused: clear error, no invoice", async () => {
  const forged = await mintCheckoutToken(
    { sub: "FORGED1", amount: "0.01", currency: "USD" },
    "not-the-merchant-secret-at-all-0001",
  );
  const before = await invoiceRequests();
  const { context, page } = await showToken(forged, "forged-signature");
  await waitForWidgetText(page, /invalid|not valid|could not|can't|cannot|error/i);
  expect(await invoiceRequests()).toBe(before);
  await saveScreenshot(page, "tampered-signature");
  await context.close();
});
