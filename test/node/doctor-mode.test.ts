/**
 * `npm run doctor` says which payment mode is in force and why, by asking the service: a
 * sandbox serving the public API only gives hosted (the lock route is unknown), the sandbox
 * with its extension gives in-page, and PAYMENT_MODE=hosted needs no question.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../../demo/sandbox/server.ts";
import { DOCTOR_ACCOUNT as ACCOUNT, runDoctorCli } from "./doctor-cli.ts";

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
  const { stdout } = await runDoctorCli(upstream, KEY, extra);
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
