/**
 * @module
 * Steps most journeys share: open a fresh order's checkout in an instrumented page, pick a
 * crypto currency, and count the merchant's `order.paid` notifications.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import type { CheckoutSnapshot } from "../../../packages/contract/src/http-api.ts";
import { sleep } from "../../support/wait.ts";
import { collectPageErrors, instrumentedContext } from "./browser.ts";
import type { ShopOrder, Stack, StoredNotification } from "./stack.ts";
import { waitFor } from "./wait.ts";
import { chooseCurrency, waitForSnapshot } from "./widget.ts";

/** The crypto currency journeys pay with unless they say otherwise. */
export const DEFAULT_CRYPTO = "USDT_TRC20";

/** An open checkout. */
export interface OpenCheckout {
  context: BrowserContext;
  page: Page;
  order: ShopOrder;
  snapshot: CheckoutSnapshot;
  errors: string[];
}

/**
 * Creates an order through the shop's API and opens its checkout; with `crypto`, also picks
 * that currency and waits for the payment instructions.
 *
 * @example
 * const { page, order } = await openCheckout(stack, browser, { crypto: "USDT_TRC20" });
 */
export async function openCheckout(
  stack: Stack,
  browser: Browser,
  options: {
    items?: { productId: string; quantity: number }[];
    currency?: "USD" | "EUR";
    crypto?: string;
  } = {},
): Promise<OpenCheckout> {
  const order = await stack.createOrder(
    options.items ?? [{ productId: "pour-over-kit", quantity: 1 }],
    options.currency ?? "USD",
  );
  const context = await instrumentedContext(browser);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(stack.checkoutUrl(order.invoiceNumber));
  const snapshot = options.crypto
    ? await chooseCurrency(page, options.crypto)
    : await waitForSnapshot(page, {});
  return { context, page, order, snapshot, errors };
}

/** The `order.paid` notifications the merchant backend kept for an order. */
export async function paidNotifications(
  stack: Stack,
  invoiceNumber: string,
): Promise<StoredNotification[]> {
  const { notifications } = await stack.merchantView(invoiceNumber);
  return notifications.filter((n) => n.type === "order.paid");
}

/**
 * Waits for the first `order.paid` of an order, gives a duplicate delivery time to arrive,
 * then expects exactly one: the outbox is at-least-once, the ledger must make it exactly once.
 */
export async function expectOnePaidNotification(stack: Stack, invoiceNumber: string) {
  await waitFor(
    async () => (await paidNotifications(stack, invoiceNumber)).length > 0,
    "an order.paid notification",
  );
  await sleep(2000);
  expect(await paidNotifications(stack, invoiceNumber)).toHaveLength(1);
}

/** Exact sum of two-decimal fiat strings, in integer cents. */
export function sumFiat(amounts: string[]): string {
  const cents = amounts.reduce((sum, a) => {
    const [whole, fraction = ""] = a.split(".");
    return sum + BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
  }, 0n);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}
