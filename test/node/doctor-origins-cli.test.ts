/**
 * `npm run doctor` fails on an `ALLOWED_ORIGINS` entry that is not an exact origin, naming it
 * (exit 1), passes exact ones, and warns while notifications have no secret of their own.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../demo/sandbox/server.ts";

const SCRIPT = fileURLToPath(new URL("../../scripts/doctor.ts", import.meta.url));
const ACCOUNT = "00000000-0000-4000-8000-000000000001";
const KEY = "sk_doctor_origins_test";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY, accountId: ACCOUNT, webhookUrl: null });
});
afterAll(() => sandbox.close());

/** Runs the doctor with every setting from the environment; its exit code and output. */
async function doctor(extra: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), "doctor-origins-"));
  const run = promisify(execFile)(process.execPath, [SCRIPT], {
    cwd,
    timeout: 30_000,
    env: {
      PATH: process.env.PATH ?? "",
      DISPLAY_NAME: "Shop",
      API_KEY: KEY,
      ACCOUNT_ID: ACCOUNT,
      WEBHOOK_SIGNING_KEY: "whsec_x",
      SANDBOX: "true",
      CHECKOUT_SIGNING_SECRET: "checkout-secret-0123456789",
      MERCHANT_API_TOKEN: "merchant-token-0123456789",
      PUBLIC_BASE_URL: "http://127.0.0.1:8787",
      UPSTREAM_BASE_URL: sandbox.url,
      PAYMENT_MODE: "hosted",
      ...extra,
    },
  });
  return run.then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

describe("npm run doctor: ALLOWED_ORIGINS and the notification secret", () => {
  it("fails naming each entry that is not an exact origin; passes exact ones", async () => {
    const bad = await doctor({
      ALLOWED_ORIGINS: "shop.example.com,https://shop.example.com/checkout",
      MERCHANT_WEBHOOK_SECRET: "webhook-secret-0123456789",
    });
    expect(bad.code).toBe(1);
    const line = bad.stdout.split("\n").find((l) => l.startsWith("✗ allowed_origins:"))!;
    expect(line).toContain('"shop.example.com" is not an origin (no scheme)');
    expect(line).toContain('"https://shop.example.com/checkout" has a path');

    const good = await doctor({
      ALLOWED_ORIGINS: "https://shop.example.com",
      MERCHANT_WEBHOOK_SECRET: "webhook-secret-0123456789",
    });
    expect(good.code).toBe(0);
    expect(good.stdout).not.toContain("allowed_origins");
    expect(good.stdout).not.toContain("webhook_secret");
  }, 90_000);

  it("warns (exit 0) while MERCHANT_WEBHOOK_SECRET is not set", async () => {
    const { code, stdout } = await doctor({ ALLOWED_ORIGINS: "https://shop.example.com" });
    expect(code).toBe(0);
    expect(stdout).toContain("! webhook_secret: MERCHANT_WEBHOOK_SECRET is not set");
    expect(stdout).not.toContain("merchant-token-0123456789");
  }, 60_000);
});
