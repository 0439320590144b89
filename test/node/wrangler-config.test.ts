/**
 * What a plain `wrangler deploy` ships: wrangler.toml read by wrangler itself. Its [vars] must
 * never be a working local-development config (loopback URLs, a fake account): without the
 * merchant's values the worker's config validation refuses it, naming each missing variable.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import {
  DEFAULT_ENDPOINTS,
  DEMO_MERCHANT_SECRETS,
  renderDevVars,
  workerDemoVars,
} from "../../scripts/dev-vars.ts";
import { parseConfig } from "../../worker/core/config/config.ts";
import type { Env } from "../../worker/edge/env.ts";

const config = unstable_readConfig({
  config: fileURLToPath(new URL("../../wrangler.toml", import.meta.url)),
});
const shippedVars = Object.fromEntries(
  Object.entries(config.vars).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
);

const problemsOf = (vars: Record<string, string>): string => {
  const result = parseConfig({ ...vars } as unknown as Env);
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.problems.join("; ");
};

describe("wrangler.toml as `wrangler deploy` ships it", () => {
  it("holds no local-development value: no loopback URL, no account id, no URL override", () => {
    const text = JSON.stringify(shippedVars);
    expect(text).not.toMatch(/127\.0\.0\.1|localhost|\[::1\]/);
    for (const name of ["ACCOUNT_ID", "PUBLIC_BASE_URL", "UPSTREAM_BASE_URL", "DISPLAY_NAME"])
      expect(shippedVars).not.toHaveProperty(name);
    expect(shippedVars.SANDBOX).toBe("false");
  });

  it("is refused by config validation, naming the merchant's missing vars", () => {
    const secrets = {
      API_KEY: "a-real-key",
      WEBHOOK_SIGNING_KEY: "a-real-signing-key",
      CHECKOUT_SIGNING_SECRET: "0123456789abcdef0123",
      MERCHANT_API_TOKEN: "0123456789abcdef0123",
    };
    // The merchant ran `wrangler secret put` but did not fill in [vars].
    const problems = problemsOf({ ...shippedVars, ...secrets });
    for (const name of ["DISPLAY_NAME", "ACCOUNT_ID", "PUBLIC_BASE_URL"])
      expect(problems).toContain(`${name} is required`);
    // Nothing at all set: every secret is named as well.
    const bare = problemsOf(shippedVars);
    for (const name of ["DISPLAY_NAME", "ACCOUNT_ID", "PUBLIC_BASE_URL", ...Object.keys(secrets)])
      expect(bare).toContain(name);
  });

  it("is refused when the commented template lines are uncommented unchanged", () => {
    const problems = problemsOf({
      ...shippedVars,
      DISPLAY_NAME: "Your Shop",
      ACCOUNT_ID: "<your account's UUID>",
      PUBLIC_BASE_URL: "https://crypto-checkout.<you>.workers.dev",
    });
    expect(problems).toContain("ACCOUNT_ID must be the account's UUID");
    expect(problems).toContain("PUBLIC_BASE_URL must be a valid https:// URL");
  });

  it("plus the generated .dev.vars values is a complete local-development config", () => {
    const result = parseConfig({
      ...shippedVars,
      ...workerDemoVars(DEFAULT_ENDPOINTS),
    } as unknown as Env);
    expect(result.ok ? [] : result.problems).toEqual([]);
    // Notifications have their own demo secret, not the API token.
    expect(result.ok && result.config.MERCHANT_WEBHOOK_SECRET).toBe(
      DEMO_MERCHANT_SECRETS.merchantWebhookSecret,
    );
    expect(renderDevVars(DEFAULT_ENDPOINTS)).toContain(
      `MERCHANT_WEBHOOK_SECRET="${DEMO_MERCHANT_SECRETS.merchantWebhookSecret}"`,
    );
  });
});
