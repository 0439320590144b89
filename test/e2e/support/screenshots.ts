/**
 * @module
 * Saves the states of each journey to `test-results/screenshots/<journey>.png` (ignored by
 * git), or to `docs/screenshots/` — the copies the README shows — with
 * `E2E_UPDATE_SCREENSHOTS=1`, so a normal test run leaves the working tree clean.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";

const DIR = fileURLToPath(
  new URL(
    process.env.E2E_UPDATE_SCREENSHOTS === "1"
      ? "../../../docs/screenshots/"
      : "../../../test-results/screenshots/",
    import.meta.url,
  ),
);

/**
 * Saves the whole page, or just one element (e.g. the widget) when given a locator.
 *
 * @example
 * await saveScreenshot(page, "pay-in-full");
 * await saveScreenshot(widget(page), "state-processing");
 */
export async function saveScreenshot(target: Page | Locator, journey: string): Promise<string> {
  mkdirSync(DIR, { recursive: true });
  const path = `${DIR}${journey}.png`;
  if ("goto" in target) await target.screenshot({ path, fullPage: true });
  else await target.screenshot({ path });
  return path;
}
