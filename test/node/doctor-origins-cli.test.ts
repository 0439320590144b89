/**
 * `npm run doctor` fails on an `ALLOWED_ORIGINS` entry that is not an exact origin, naming it
 * (exit 1), passes exact ones, and warns while notifications have no secret of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../demo/sandbox/server.ts";
import { DOCTOR_ACCOUNT as ACCOUNT, runDoctorCli } from "./doctor-cli.ts";

const KEY = "sk_doctor_origins_test";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKey: KEY, accountId: ACCOUNT, webhookUrl: null });
});
afterAll(() => sandbox.close());

const doctor = (extra: Record<string, string>) =>
  runDoctorCli(sandbox.url, KEY, { PAYMENT_MODE: "hosted", ...extra });

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
