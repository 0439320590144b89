/**
 * @module
 * Reading and driving the `<crypto-checkout>` widget from a test, as a shopper would: by its
 * visible text and roles (Playwright's locators pierce the open shadow root), plus the
 * snapshots its `checkout:status` events carry (recorded by `instrumentedContext`).
 */
import type { Page } from "playwright-core";
import type { CheckoutSnapshot } from "../../../packages/contract/src/http-api.ts";

/** The widget element. */
export const widget = (page: Page) => page.locator("crypto-checkout");

/** The newest snapshot the widget announced, if any. */
export function lastSnapshot(page: Page): Promise<CheckoutSnapshot | null> {
  return page.evaluate(() => {
    const list = (window as unknown as { __snapshots?: unknown[] }).__snapshots ?? [];
    return (list[list.length - 1] ?? null) as never;
  });
}

/** Resolves with the first snapshot (newest wins) that satisfies `test`, given as data. */
export async function waitForSnapshot(
  page: Page,
  test: {
    status?: string;
    orderState?: string;
    attemptNumber?: number;
    hasPayment?: boolean;
    canRetry?: boolean;
  },
  timeout = 20_000,
): Promise<CheckoutSnapshot> {
  try {
    const handle = await page.waitForFunction(
      (t) => {
        const list = (window as unknown as { __snapshots?: CheckoutSnapshot[] }).__snapshots ?? [];
        const s = list[list.length - 1];
        if (!s) return false;
        if (t.status !== undefined && s.attempt?.status !== t.status) return false;
        if (t.orderState !== undefined && s.orderState !== t.orderState) return false;
        if (t.attemptNumber !== undefined && s.attempt?.number !== t.attemptNumber) return false;
        if (t.hasPayment !== undefined && Boolean(s.attempt?.payment) !== t.hasPayment)
          return false;
        if (t.canRetry !== undefined && s.canRetry !== t.canRetry) return false;
        return s;
      },
      test,
      { timeout },
    );
    return (await handle.jsonValue()) as CheckoutSnapshot;
  } catch (error) {
    const last = await lastSnapshot(page).catch(() => null);
    throw new Error(
      `widget never reported ${JSON.stringify(test)}; last snapshot: ${JSON.stringify(last)?.slice(0, 800)}\n${(error as Error).message}`,
    );
  }
}

/** The widget's visible text (shadow root included). */
export function widgetText(page: Page): Promise<string> {
  return widget(page).evaluate((el) => {
    const root: ParentNode = el.shadowRoot ?? el;
    return (
      [...root.children]
        .filter((child) => !["STYLE", "SCRIPT", "LINK"].includes(child.tagName))
        // innerText on purpose: what is rendered, not hidden template text.
        // biome-ignore lint/performance/useDomNodeTextContent: the shopper sees rendered text.
        .map((child) => (child as HTMLElement).innerText ?? "")
        .join("\n")
    );
  });
}

/** Waits until the widget's visible text matches `pattern`. */
export async function waitForWidgetText(
  page: Page,
  pattern: RegExp,
  timeout = 20_000,
): Promise<string> {
  const deadline = Date.now() + timeout;
  let text = "";
  while (Date.now() < deadline) {
    text = await widgetText(page).catch(() => "");
    if (pattern.test(text)) return text;
    await page.waitForTimeout(200);
  }
  throw new Error(`widget text never matched ${pattern}; it shows:\n${text}`);
}

/**
 * Picks a crypto currency in the widget and waits for the payment instructions.
 *
 * @example
 * const snapshot = await chooseCurrency(page, "USDT_TRC20");
 */
export async function chooseCurrency(page: Page, code: string): Promise<CheckoutSnapshot> {
  await waitForSnapshot(page, {});
  await (await currencyButton(page, code)).click();
  return waitForSnapshot(page, { hasPayment: true });
}

/**
 * The picker's button for a currency code. Shoppers see (and the button is named by) the
 * ticker and the service's name, under a group named by the network's display name, so the
 * code is looked up in the worker's live list (from the page, as the widget reads it).
 *
 * @example
 * await (await currencyButton(page, "USDT_TRC20")).click();
 */
export async function currencyButton(page: Page, code: string) {
  const entry = await page.evaluate(async (wanted) => {
    const script = document.querySelector<HTMLScriptElement>('script[src*="widget.js"]');
    const api = new URL(script?.src ?? location.href).origin;
    const list = (await (await fetch(`${api}/v1/currencies`)).json()) as {
      data: { code: string; name: string; networkName: string }[];
    };
    return list.data.find((c) => c.code === wanted) ?? null;
  }, code);
  if (!entry) throw new Error(`the worker does not list ${code}`);
  const ticker = code.split("_")[0];
  return widget(page)
    .getByRole("group", { name: entry.networkName, exact: true })
    .getByRole("button", { name: `${ticker} ${entry.name}`, exact: true });
}
