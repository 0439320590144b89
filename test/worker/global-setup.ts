/**
 * Starts a real sandbox (the payment-service simulator) on a free loopback port for the
 * workerd test project, and hands its URL to the worker's bindings via `provide`; a second one
 * serving the public API only (`currencyLock: false`) for the hosted-mode tests. Also hands
 * over wrangler.toml's top-level [vars] as wrangler reads them (what a plain deploy ships).
 * Every answer and webhook both sandboxes send during the run (worker tests and simulation) is
 * checked against the service's published wire format (`test/contract/`); the run fails at
 * teardown, listing the first differences, if any.
 */

import type { TestProject } from "vitest/node";
import { unstable_readConfig } from "wrangler";
import { startSandbox } from "../../demo/sandbox/server.ts";
import { observeWire } from "../../demo/sandbox/wire-observer.ts";
import { unpublishedCodes, wireViolations } from "../contract/check-wire.ts";

/** How many differences a run keeps to report (the first ones). */
const MAX_REPORTED = 20;

/** Requests a second per key the limited sandbox serves (`limitedSandboxUrl`). */
export const LIMITED_SANDBOX_RPS = 6;

export default async function setup(project: TestProject) {
  const allowed = unpublishedCodes();
  const violations: string[] = [];
  let differences = 0;
  // Checked as they come (a simulation sends far too many to keep).
  observeWire((o) => {
    const found = wireViolations([o], allowed);
    differences += found.length;
    if (violations.length < MAX_REPORTED) violations.push(...found);
  });
  const sandbox = await startSandbox({
    port: 0,
    apiKey: "test-api-key-never-shown",
    webhookSigningKey: "test-webhook-signing-key-never-shown",
    accountId: "00000000-0000-4000-8000-000000000001",
    // Tests deliver webhooks themselves (from the sandbox's delivery log) to the worker in workerd.
    webhookUrl: null,
  });
  project.provide("sandboxUrl", sandbox.url);
  // The public API only (no currency-lock extension): what the real service offers.
  const publicApi = await startSandbox({
    port: 0,
    apiKey: "test-api-key-never-shown",
    webhookSigningKey: "test-webhook-signing-key-never-shown",
    accountId: "00000000-0000-4000-8000-000000000001",
    webhookUrl: null,
    currencyLock: false,
  });
  project.provide("publicApiSandboxUrl", publicApi.url);
  // The service's per-key rate limit, played small: the upstream budget's tests saturate it.
  const limited = await startSandbox({
    port: 0,
    apiKey: "test-api-key-never-shown",
    webhookSigningKey: "test-webhook-signing-key-never-shown",
    accountId: "00000000-0000-4000-8000-000000000001",
    webhookUrl: null,
    rateLimit: LIMITED_SANDBOX_RPS,
  });
  project.provide("limitedSandboxUrl", limited.url);
  const { vars } = unstable_readConfig({ config: "wrangler.toml" });
  project.provide(
    "shippedVars",
    Object.fromEntries(
      Object.entries(vars).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    ),
  );
  return async () => {
    await Promise.all([sandbox.close(), publicApi.close(), limited.close()]);
    observeWire(null);
    if (differences > 0) {
      throw new Error(
        `the sandbox sent ${differences} answer(s) the service's SDK does not allow:\n${violations.join("\n")}`,
      );
    }
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    sandboxUrl: string;
    publicApiSandboxUrl: string;
    limitedSandboxUrl: string;
    shippedVars: Record<string, string>;
  }
}
