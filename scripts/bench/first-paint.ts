/**
 * @module
 * Widget first paint in Chromium: a shopper opens the demo storefront's checkout page with
 * 4× CPU throttling and a slow network (Lighthouse's mobile "slow 4G": 150 ms RTT, 1.6 Mbit/s
 * down, 750 kbit/s up, applied by DevTools as 562.5 ms latency, ×0.9 throughput), and the
 * bench notes when the currency picker's first choice is in the widget's shadow DOM and which
 * widget scripts were fetched before it (their gzip size is what the shopper downloaded).
 */
import { existsSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Page script: notes `performance.now()` once the picker's first choice is rendered. */
const WATCH_PICKER = `(() => {
  const look = () => {
    const host = document.querySelector("crypto-checkout");
    if (host && host.shadowRoot && host.shadowRoot.querySelector(".choice"))
      window.__picker = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();`;

/** One run's result. */
export interface FirstPaint {
  /** ms from navigation start to the first currency choice in the shadow DOM. */
  pickerMs: number;
  /** Widget scripts (worker-served `.js`) fetched before the picker showed. */
  scripts: string[];
  /** Their gzip bytes (level 9, from `dist/public`). */
  gzipBytes: number;
}

/**
 * Opens one checkout page per run in a fresh context and times the picker; median of `runs`.
 *
 * @example
 * const fp = await firstPaint(shopUrl, workerUrl, 3);
 */
export async function firstPaint(
  shopUrl: string,
  workerUrl: string,
  runs = 3,
): Promise<FirstPaint | null> {
  if (!existsSync(CHROMIUM)) return null;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  const results: FirstPaint[] = [];
  try {
    for (let r = 0; r < runs; r++) {
      const created = await fetch(`${shopUrl}/api/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          currency: "USD",
          items: [{ productId: "house-blend", quantity: 1 }],
        }),
      });
      const { checkoutUrl } = (await created.json()) as { checkoutUrl: string };
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      // A string, not a function: this file is also typechecked without the DOM library.
      await context.addInitScript({ content: WATCH_PICKER });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 562.5,
        downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
        uploadThroughput: (750 * 1024 * 0.9) / 8,
      });
      const scripts: { url: string; at: number }[] = [];
      const t0 = Date.now();
      page.on("request", (req) => {
        if (req.url().startsWith(workerUrl) && req.url().endsWith(".js"))
          scripts.push({ url: req.url(), at: Date.now() - t0 });
      });
      await page.goto(`${shopUrl}${checkoutUrl}`, { waitUntil: "commit", timeout: 60_000 });
      await page.waitForFunction("window.__picker !== undefined", null, { timeout: 60_000 });
      const pickerMs = (await page.evaluate("window.__picker")) as number;
      const before = scripts.filter((s) => s.at <= pickerMs).map((s) => new URL(s.url).pathname);
      const gzipBytes = before
        .map((path) => `dist/public${path}`)
        .filter((file) => existsSync(file))
        .reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
      results.push({ pickerMs, scripts: before, gzipBytes });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  results.sort((a, b) => a.pickerMs - b.pickerMs);
  return results[Math.floor(results.length / 2)]!;
}
