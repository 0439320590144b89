/**
 * The demo's merchant panels fetch the ledger on the widget's events plus a slow poll
 * (`demo/storefront/public/dom.js` `refresher`): a burst of events shares one fetch, and an
 * idle page asks rarely. Before, the panels polled every second with no regard for events.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error: plain browser JavaScript, no types.
import { MIN_GAP_MS, refresher, SLOW_POLL_MS } from "../../demo/storefront/public/dom.js";

const page = (name: string) =>
  readFileSync(new URL(`../../demo/storefront/public/${name}`, import.meta.url), "utf8");

describe("demo ledger refresher", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("an idle checkout page fetches the ledger once per slow poll, not every second", async () => {
    let fetches = 0;
    const ledger = refresher(async () => void fetches++);
    await vi.advanceTimersByTimeAsync(30_100);
    ledger.stop();
    expect(SLOW_POLL_MS).toBeGreaterThanOrEqual(3000);
    // 1 at load + one per slow tick: 7 over 30 s (the old 1 s poll made 31).
    expect(fetches).toBe(1 + Math.floor(30_000 / SLOW_POLL_MS));
  });

  it("a burst of checkout:status events makes one fetch, and a later event one more", async () => {
    let fetches = 0;
    const ledger = refresher(async () => void fetches++);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetches).toBe(1);
    for (let i = 0; i < 20; i++) ledger.refresh();
    await vi.advanceTimersByTimeAsync(MIN_GAP_MS);
    expect(fetches).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    ledger.refresh();
    await vi.advanceTimersByTimeAsync(MIN_GAP_MS);
    expect(fetches).toBe(3);
    ledger.stop();
  });

  it("never overlaps a slow fetch: a refresh asked for meanwhile runs after it", async () => {
    let running = 0;
    let most = 0;
    let fetches = 0;
    const ledger = refresher(async () => {
      fetches++;
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      running--;
    });
    await vi.advanceTimersByTimeAsync(MIN_GAP_MS);
    ledger.refresh();
    await vi.advanceTimersByTimeAsync(4000);
    ledger.stop();
    expect([most, fetches]).toEqual([1, 2]);
  });

  it("both merchant panels use it: no page polls the ledger every second any more", () => {
    for (const name of ["checkout.js", "merchant.js"]) {
      expect(page(name)).toMatch(/refresher\(/);
      expect(page(name)).not.toMatch(/,\s*1000\);/);
    }
    expect(page("checkout.js")).toMatch(
      /addEventListener\("checkout:status", merchantView\.refresh\)/,
    );
  });
});
