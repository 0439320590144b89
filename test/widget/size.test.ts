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
    const types = readFileSync("dist/widget.esm.d.ts", "utf8");
    expect(types).not.toMatch(/from "\.\.?\//);
    expect(types).toContain("export interface CheckoutSnapshot");
    expect(types).toContain('"checkout:paid": CustomEvent<');
  }, 60_000);
});
