/**
 * @module
 * The per-file fixture of every journey: one real stack (sandbox + `wrangler dev` +
 * storefront) and one Chromium, started before the file's tests and stopped after.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser.ts";
import { type Stack, startStack } from "./stack.ts";

/** Filled in by `beforeAll`; read it inside tests. */
export interface Journey {
  stack: Stack;
  browser: Browser;
}

/**
 * Registers the hooks; returns the object they fill. `hosted`: the sandbox as the public API
 * only (hosted mode, `npm run demo -- --hosted`).
 *
 * @example
 * const e2e = useStackAndBrowser();
 * it("…", async () => { await e2e.browser.newContext(); e2e.stack.urls.shopUrl; });
 */
export function useStackAndBrowser(options: { hosted?: boolean } = {}): Journey {
  const journey = {} as Journey;
  beforeAll(async () => {
    [journey.stack, journey.browser] = await Promise.all([startStack(options), launchBrowser()]);
  });
  afterAll(async () => {
    await journey.browser?.close();
    await journey.stack?.stop();
  });
  return journey;
}
