/**
 * The build itself: the size budget of the script-tag bundle, and self-contained ESM types.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUDGET_GZIP, widgetSizes } from "../../scripts/widget-size.ts";

describe("widget build", () => {
  it("the script-tag bundle (JS + inlined CSS) is at most 15 KB gzip", () => {
    execFileSync("node", ["scripts/build-widget.ts"], { stdio: "inherit" });
    const sizes = widgetSizes();
    const main = sizes.find((s) => s.file === "public/widget.js")!;
    const qr = sizes.find((s) => s.file === "public/qr.js")!;
    console.log(`widget.js: ${main.raw} B raw, ${main.gzip} B gzip; + qr.js ${qr.gzip} B gzip`);
    expect(BUDGET_GZIP).toBe(15 * 1024);
    expect(main.gzip).toBeLessThanOrEqual(BUDGET_GZIP);
    // The stylesheet is inside the bundle (no separate request, no light-DOM <link>).
    expect(readFileSync("dist/public/widget.js", "utf8")).toContain("--cc-accent");
    // The ESM types stand alone: the contract is inlined, nothing points back into the repo.
    // What comes after the picker is on demand: the payment instructions, the refund form and
    // top-up mode are separate chunks, and the bundle renders none of their markup itself.
    const bundle = readFileSync("dist/public/widget.js", "utf8");
    const chunks: [string, string][] = [
      ["payment.js", 'class:"payment"'],
      ["refund.js", 'class:"refund"'],
      ["topup.js", "__cryptoCheckoutShared"],
    ];
    for (const [file, marker] of chunks) {
      expect(readFileSync(`dist/public/${file}`, "utf8")).toContain(marker);
      if (marker.startsWith("class:")) expect(bundle).not.toContain(marker);
    }
    // Chunks borrow the bundle's Preact instead of carrying their own (hooks need one instance).
    expect(readFileSync("dist/public/topup.js", "utf8")).not.toContain("__H");
    const types = readFileSync("dist/widget.esm.d.ts", "utf8");
    expect(types).not.toMatch(/from "\.\.?\//);
    expect(types).toContain("export interface CheckoutSnapshot");
    expect(types).toContain('"checkout:paid": CustomEvent<');
  }, 60_000);
});
