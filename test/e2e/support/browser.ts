/**
 * @module
 * Launches Debian's Chromium through playwright-core (never a downloaded browser) and
 * instruments pages so tests can follow the widget's `checkout:status` events.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** Where the system Chromium lives; override with `CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * @example
 * const browser = await launchBrowser();
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

/**
 * A context whose pages record every `checkout:status` snapshot in `window.__snapshots` and
 * every `checkout:error` in `window.__checkoutErrors`. A capturing listener on `document` sees
 * the element's events whether or not they bubble.
 *
 * @example
 * const context = await instrumentedContext(browser);
 */
export async function instrumentedContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, unknown[]>;
    w.__snapshots = [];
    w.__checkoutErrors = [];
    document.addEventListener(
      "checkout:status",
      (e) => w.__snapshots!.push((e as CustomEvent).detail),
      true,
    );
    document.addEventListener(
      "checkout:error",
      (e) => w.__checkoutErrors!.push((e as CustomEvent).detail),
      true,
    );
  });
  return context;
}

/** Collects the page's console errors and uncaught exceptions (for failure messages). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return errors;
}
