/**
 * `npm run doctor` says which payment mode is in force and why, by asking the service: a
 * sandbox serving the public API only gives hosted (the lock route is unknown), the sandbox
 * with its extension gives in-page, and PAYMENT_MODE=hosted needs no question.
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
const KEY = "sk_doctor_mode_test";
let withLock: RunningSandbox;
let publicOnly: RunningSandbox;

beforeAll(async () => {
  const common = { port: 0, apiKey: KEY, accountId: ACCOUNT, webhookUrl: null };
  [withLock, publicOnly] = await Promise.all([
    startSandbox(common),
    startSandbox({ ...common, currencyLock: false }),
  ]);
});
afterAll(() => Promise.all([withLock.close(), publicOnly.close()]));

async function doctor(upstream: string, extra: Record<string, string> = {}) {
  // An empty directory: no wrangler.toml or .dev.vars, every setting from the environment.
  const cwd = mkdtempSync(join(tmpdir(), "doctor-mode-"));
  const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT], {
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
      UPSTREAM_BASE_URL: upstream,
      ...extra,
    },
  });
  return stdout.split("\n").find((line) => line.startsWith("Payment mode:")) ?? stdout;
}

describe("npm run doctor: the payment mode", () => {
  it("hosted against the public API, in-page with the extension, hosted when forced", async () => {
    expect(await doctor(publicOnly.url)).toMatch(
      /^Payment mode: hosted — PAYMENT_MODE=auto and the service has no currency lock \(POST \/x-sandbox\/invoice\/lock-currency is an unknown route: 404 exceptions\.route\.notFound\)/,
    );
    expect(await doctor(withLock.url)).toMatch(
      /^Payment mode: in-page — PAYMENT_MODE=auto and the service offers the currency lock/,
    );
    expect(await doctor(withLock.url, { PAYMENT_MODE: "hosted" })).toBe(
      "Payment mode: hosted — PAYMENT_MODE=hosted: shoppers always pay on the service's payment page.",
    );
    // Three `npm run doctor` processes: seconds each on a loaded 2-core machine.
  }, 90_000);
});
