import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

describe("size budget", () => {
  it("the script-tag bundle (JS + inlined CSS) is at most 15 KB gzip", () => {
    execFileSync("node", ["scripts/build-widget.ts"], { stdio: "inherit" });
    const gz = gzipSync(readFileSync("dist/public/widget.js"), { level: 9 }).length;
    console.log(`widget.js: ${gz} bytes gzip`);
    expect(gz).toBeLessThanOrEqual(15 * 1024);
  }, 60_000);
});
