/**
 * @module
 * Journey 7: a checkout token whose amount was edited in the browser, or one signed with a
 * wrong key, shows the shopper a clear error and creates no upstream invoice.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { mintCheckoutToken } from "../../packages/server/src/index.ts";
import { sleep } from "../support/wait.ts";
import { instrumentedContext } from "./support/browser.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitForSnapshot, waitForWidgetText } from "./support/widget.ts";

/** The `checkout:error` details the page recorded. */
const checkoutErrors = (page: Page) =>
  page.evaluate(() => (window as unknown as { __checkoutErrors: unknown[] }).__checkoutErrors);

const e2e = useStackAndBrowser();

const b64url = (text: string) => Buffer.from(text).toString("base64url");

/** The token the shop minted for an order, as its checkout page carries it. */
async function realToken(invoiceNumber: string): Promise<string> {
  const page = await (await fetch(e2e.stack.checkoutUrl(invoiceNumber))).text();
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

/**
 * Opens the order's real checkout, then swaps the element's token for `token`, as a shopper
 * editing the page would. (A page made up by the test would not do: Chromium treats a
 * route-fulfilled document as public and blocks its loopback requests.)
 */
async function showToken(invoiceNumber: string, token: string) {
  const context = await instrumentedContext(e2e.browser);
  const page = await context.newPage();
  await page.goto(e2e.stack.checkoutUrl(invoiceNumber));
  await waitForSnapshot(page, {});
  const before = await invoiceRequests();
  await page.locator("crypto-checkout").evaluate((el, t) => el.setAttribute("token", t), token);
  return { context, page, before };
}

async function invoiceRequests(): Promise<number> {
  return (await e2e.stack.sandboxRequests("/invoice")).filter((r) => r.method === "POST").length;
}

it("an edited amount is refused: clear error, no invoice", async () => {
  const order = await e2e.stack.createOrder([{ productId: "pour-over-kit", quantity: 1 }]);
  const forged = withEditedAmount(await realToken(order.invoiceNumber), "0.01");
  // The order was never opened, so only the signature check stands between this token and a
  // new invoice (the same-sub/other-amount conflict rule cannot be what refuses it).
  const invoicesBefore = await invoiceRequests();

  const direct = await fetch(`${e2e.stack.urls.workerUrl}/v1/checkouts`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: e2e.stack.urls.shopUrl },
    body: JSON.stringify({ token: forged }),
  });
  expect(direct.status).toBe(401);
  expect(((await direct.json()) as { error: { code: string } }).error.code).toBe("token_invalid");
  expect(await invoiceRequests()).toBe(invoicesBefore);

  const { context, page, before } = await showToken(order.invoiceNumber, forged);
  await waitForWidgetText(page, /not valid/i);
  await sleep(1000);
  expect(await invoiceRequests()).toBe(before);
  expect(await checkoutErrors(page)).toContainEqual(
    expect.objectContaining({ code: "token_invalid" }),
  );
  await saveScreenshot(page, "tampered-amount");
  await context.close();
});

it("a forged signature is refused: clear error, no invoice", async () => {
  const order = await e2e.stack.createOrder([{ productId: "enamel-mug", quantity: 1 }]);
  const forged = await mintCheckoutToken(
    { sub: "FORGED1", amount: "0.01", currency: "USD" },
    "not-the-merchant-secret-at-all-0001",
  );
  const { context, page, before } = await showToken(order.invoiceNumber, forged);
  await waitForWidgetText(page, /not valid/i);
  await sleep(1000);
  expect(await invoiceRequests()).toBe(before);
  const log = await e2e.stack.sandboxRequests("/invoice");
  expect(log.some((r) => JSON.stringify(r).includes("FORGED1"))).toBe(false);
  await saveScreenshot(page, "tampered-signature");
  await context.close();
});
