/**
 * @module
 * Saves the final state of each journey to `test-results/screenshots/<journey>.png` (ignored by
 * git), or to `docs/screenshots/` — the copies the README shows — with
 * `E2E_UPDATE_SCREENSHOTS=1`, so a normal test run leaves the working tree clean.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

const DIR = fileURLToPath(
  new URL(
    process.env.E2E_UPDATE_SCREENSHOTS === "1"
      ? "../../../docs/screenshots/"
      : "../../../test-results/screenshots/",
    import.meta.url,
  ),
);

/**
 * @example
 * await saveScreenshot(page, "pay-in-full");
 */
export async function saveScreenshot(page: Page, journey: string): Promise<string> {
  mkdirSync(DIR, { recursive: true });
  const path = `${DIR}${journey}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}
