import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { doctorEnv } from "../../scripts/doctor-env.ts";
import { CONFIG_NAMES } from "../../worker/core/config/config.ts";

describe("npm run doctor's environment", () => {
  it("reads every config name from the shell, over .dev.vars and wrangler.toml", () => {
    const dir = mkdtempSync(join(tmpdir(), "doctor-env-"));
    writeFileSync(
      join(dir, "wrangler.toml"),
      '[vars]\nDISPLAY_NAME = "From toml"\nSANDBOX = "true"\n',
    );
    writeFileSync(join(dir, ".dev.vars"), 'API_KEY="from-dev-vars"\nSANDBOX="false"\n');
    const shell = Object.fromEntries(CONFIG_NAMES.map((name) => [name, `shell-${name}`]));
    delete shell.DISPLAY_NAME;
    const env = doctorEnv(dir, { ...shell, UNRELATED_SECRET: "never-read" });
    expect(env.DISPLAY_NAME).toBe("From toml");
    for (const name of CONFIG_NAMES.filter((n) => n !== "DISPLAY_NAME"))
      expect(env[name]).toBe(`shell-${name}`);
    expect(env.CHECKOUT_SIGNING_SECRET).toBe("shell-CHECKOUT_SIGNING_SECRET");
    expect(env.MERCHANT_API_TOKEN).toBe("shell-MERCHANT_API_TOKEN");
    expect(Object.keys(env)).not.toContain("UNRELATED_SECRET");
  });

  it("falls back to .dev.vars over wrangler.toml when the shell has nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "doctor-env-"));
    writeFileSync(join(dir, "wrangler.toml"), '[vars]\nSANDBOX = "true"\n');
    writeFileSync(join(dir, ".dev.vars"), 'SANDBOX="false"\n');
    expect(doctorEnv(dir, {}).SANDBOX).toBe("false");
  });
});
