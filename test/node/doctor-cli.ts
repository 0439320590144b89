/**
 * Runs `npm run doctor` (scripts/doctor.ts) in an empty directory, so every setting comes from
 * the environment: a complete sandbox configuration against `upstream`, with `extra` on top.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const SCRIPT = fileURLToPath(new URL("../../scripts/doctor.ts", import.meta.url));
export const DOCTOR_ACCOUNT = "00000000-0000-4000-8000-000000000001";

/** The doctor's exit code and output. */
export async function runDoctorCli(
  upstream: string,
  key: string,
  extra: Record<string, string> = {},
): Promise<{ code: number; stdout: string }> {
  const cwd = mkdtempSync(join(tmpdir(), "doctor-cli-"));
  const run = promisify(execFile)(process.execPath, [SCRIPT], {
    cwd,
    timeout: 30_000,
    env: {
      PATH: process.env.PATH ?? "",
      DISPLAY_NAME: "Shop",
      API_KEY: key,
      ACCOUNT_ID: DOCTOR_ACCOUNT,
      WEBHOOK_SIGNING_KEY: "whsec_x",
      SANDBOX: "true",
      CHECKOUT_SIGNING_SECRET: "checkout-secret-0123456789",
      MERCHANT_API_TOKEN: "merchant-token-0123456789",
      PUBLIC_BASE_URL: "http://127.0.0.1:8787",
      UPSTREAM_BASE_URL: upstream,
      ...extra,
    },
  });
  return run.then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}
