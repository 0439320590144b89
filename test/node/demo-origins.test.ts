/**
 * The demo accepts extra origins for its worker's ALLOWED_ORIGINS (`--allow-origin`,
 * `DEMO_ALLOWED_ORIGINS`), since its `--var` flags win over `.dev.vars`; bad values are errors.
 */
import { describe, expect, it } from "vitest";
import { demoOrigins } from "../../scripts/demo-origins.ts";
import { DEFAULT_ENDPOINTS, workerDemoVars } from "../../scripts/dev-vars.ts";

describe("demo extra origins", () => {
  it("reads repeated --allow-origin flags and DEMO_ALLOWED_ORIGINS, deduplicated", () => {
    expect(
      demoOrigins(
        [
          "--no-build",
          "--allow-origin",
          "https://shop.test/",
          "--allow-origin=http://localhost:3000",
        ],
        { DEMO_ALLOWED_ORIGINS: " http://localhost:3000 , http://10.0.0.5:8080" },
      ),
    ).toEqual(["https://shop.test", "http://localhost:3000", "http://10.0.0.5:8080"]);
    expect(demoOrigins([], {})).toEqual([]);
  });

  it("refuses what is not an origin, naming it", () => {
    for (const bad of ["shop.test", "https://shop.test/checkout", "ftp://x.test", "*"])
      expect(() => demoOrigins(["--allow-origin", bad], {}), bad).toThrow(bad);
    expect(() => demoOrigins(["--allow-origin"], {})).toThrow(/needs an origin/);
  });

  it("the worker's ALLOWED_ORIGINS keeps the storefront's own and adds the extra ones", () => {
    expect(workerDemoVars(DEFAULT_ENDPOINTS).ALLOWED_ORIGINS).toBe(
      "http://127.0.0.1:5173,http://localhost:5173",
    );
    expect(workerDemoVars(DEFAULT_ENDPOINTS, ["https://shop.test"]).ALLOWED_ORIGINS).toBe(
      "http://127.0.0.1:5173,http://localhost:5173,https://shop.test",
    );
  });
});
