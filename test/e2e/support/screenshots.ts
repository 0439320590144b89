/**
 * @module
 * Saves the final state of each journey to `docs/screenshots/<journey>.png`.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

const DIR = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));

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
