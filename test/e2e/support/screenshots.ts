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

/**
 * Saves the part of the page from the top of `from` to the bottom of `within` (its full width,
 * with a margin above): e.g. a long widget's last lines, where a flow shows its state. The
 * region must fit in the viewport.
 *
 * @example
 * await saveClip(page, payFromWalletButton(page), widget(page), "wallet-declined");
 */
export async function saveClip(
  page: Page,
  from: Locator,
  within: Locator,
  journey: string,
): Promise<string> {
  mkdirSync(DIR, { recursive: true });
  const path = `${DIR}${journey}.png`;
  // The region's end in view: its coordinates are then the viewport's.
  await within.evaluate((el) => el.scrollIntoView({ block: "end" }));
  const top = await from.boundingBox();
  const box = await within.boundingBox();
  if (!top || !box) throw new Error(`nothing to photograph for ${journey}`);
  const margin = 12;
  const y = Math.max(0, top.y - margin);
  await page.screenshot({
    path,
    clip: { x: box.x, y, width: box.width, height: box.y + box.height - y },
  });
  return path;
}
