import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { notificationSecret, parseConfig } from "../../worker/core/config/config.ts";
import { upstreamBaseUrl } from "../../worker/core/config/upstream.ts";
import { x402Settings } from "../../worker/core/config/x402-settings.ts";
import type { Env } from "../../worker/edge/env.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { openCheckout, token, uniqueSub, worker } from "./helpers.ts";

const valid = (): Env =>
  ({
    DISPLAY_NAME: "Shop",
    API_KEY: "key-abcdef",
    ACCOUNT_ID: "00000000-0000-4000-8000-000000000001",
    WEBHOOK_SIGNING_KEY: "whsec-abcdef",
    CHECKOUT_SIGNING_SECRET: "0123456789abcdef0123",
    MERCHANT_API_TOKEN: "0123456789abcdef0123",
    PUBLIC_BASE_URL: "https://pay.example.com/",
    ALLOWED_ORIGINS: "https://shop.example.com, https://www.example.com/",
  }) as Env;

describe("configuration (the gateway module's settings)", () => {
  it("parses a complete configuration with defaults", () => {
    const result = parseConfig(valid());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.ORDER_ID_PREFIX).toBe("cc");
    expect(result.config.SANDBOX).toBe(false);
    expect(result.config.PUBLIC_BASE_URL).toBe("https://pay.example.com");
    expect(result.config.ALLOWED_ORIGINS).toEqual([
      "https://shop.example.com",
      "https://www.example.com",
    ]);
  });

  it.each([
    ["WEBHOOK_SIGNING_KEY", undefined, "WEBHOOK_SIGNING_KEY is required"],
    ["API_KEY", "", "API_KEY is required"],
    ["ACCOUNT_ID", "not-a-uuid", "ACCOUNT_ID must be the account's UUID"],
    ["PUBLIC_BASE_URL", "http://pay.example.com", "PUBLIC_BASE_URL must be an https:// URL"],
    // An unparsable URL (e.g. wrangler.toml's template line left unchanged) is named, not thrown.
    [
      "PUBLIC_BASE_URL",
      "https://crypto-checkout.<you>.workers.dev",
      "PUBLIC_BASE_URL must be a valid https:// URL",
    ],
    ["ORDER_ID_PREFIX", "bad prefix!", "ORDER_ID_PREFIX must be 1-24"],
    ["SANDBOX", "yes", "SANDBOX"],
    ["CHECKOUT_SIGNING_SECRET", "short", "CHECKOUT_SIGNING_SECRET must be at least 16"],
    ["MERCHANT_WEBHOOK_SECRET", "short", "MERCHANT_WEBHOOK_SECRET must be at least 16"],
    ["UPSTREAM_BASE_URL", "ftp://example.com", "UPSTREAM_BASE_URL must be an http:// or https://"],
    [
      "UPSTREAM_BASE_URL",
      "javascript:alert(1)",
      "UPSTREAM_BASE_URL must be an http:// or https://",
    ],
    ["UPSTREAM_MAX_RPS", "0", "UPSTREAM_MAX_RPS must be a whole number of calls per second"],
    ["UPSTREAM_MAX_RPS", "2.5", "UPSTREAM_MAX_RPS must be a whole number of calls per second"],
    ["UPSTREAM_MAX_RPS", "fast", "UPSTREAM_MAX_RPS must be a whole number of calls per second"],
    ["UPSTREAM_MAX_RPS", "10000", "UPSTREAM_MAX_RPS must be a whole number of calls per second"],
    ["MERCHANT_API_TOKEN", "token with spaces !!!!", "MERCHANT_API_TOKEN must use only"],
    ["MERCHANT_API_TOKEN", "0123456789abcdef=0123", "MERCHANT_API_TOKEN must use only"],
    ["MERCHANT_WEBHOOK_URL", "javascript:alert(1)", "MERCHANT_WEBHOOK_URL must be an https:// URL"],
    [
      "MERCHANT_WEBHOOK_URL",
      "http://shop.example.com/hook",
      "MERCHANT_WEBHOOK_URL must be an https://",
    ],
    ["X402_PAY_TO", "0x1234", "X402_PAY_TO must be an EVM address"],
    // One letter's case flipped in a checksummed address: a typo, not another wallet.
    [
      "X402_PAY_TO",
      "0x5A4Db0c0FfEE000000000000000000000000D3e0",
      "X402_PAY_TO is not its EIP-55 checksum spelling",
    ],
    ["X402_PAY_TO", `0x${"0".repeat(40)}`, "X402_PAY_TO must not be the zero address"],
    ["X402_NETWORK", "eip155:1", "X402_NETWORK must be eip155:8453 (Base) or eip155:84532"],
    // A test network in production would never pay (SANDBOX is false in `valid()`).
    ["X402_NETWORK", "eip155:84532", "X402_NETWORK must be eip155:8453 with SANDBOX=false"],
    [
      "X402_FACILITATOR_URL",
      "ftp://x402.example",
      "X402_FACILITATOR_URL must be an http:// or https://",
    ],
  ])("names %s when it is %s", (name, value, message) => {
    const e = valid() as unknown as Record<string, unknown>;
    e[name] = value;
    const result = parseConfig(e as unknown as Env);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join("; ")).toContain(message);
  });

  it("x402: off without X402_PAY_TO; with it, Base in production, Base Sepolia in sandbox mode, the facilitator at the service's base URL + /x402 unless set, the wallet in its EIP-55 spelling", () => {
    const off = parseConfig(valid());
    expect(off.ok && x402Settings(off.config)).toBe(null);
    const lower = "0x5a4db0c0ffee000000000000000000000000d3e0";
    const production = parseConfig({ ...valid(), X402_PAY_TO: lower } as Env);
    if (!production.ok) throw new Error(production.problems.join("; "));
    expect(x402Settings(production.config)).toMatchObject({
      payTo: "0x5A4Db0c0FfEE000000000000000000000000d3e0",
      asset: { network: "eip155:8453", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
      facilitatorUrl: `${upstreamBaseUrl(production.config)}/x402`,
    });
    const sandbox = parseConfig({
      ...valid(),
      SANDBOX: "true",
      X402_PAY_TO: lower,
      X402_FACILITATOR_URL: "https://x402.example/facilitator/",
    } as Env);
    if (!sandbox.ok) throw new Error(sandbox.problems.join("; "));
    expect(x402Settings(sandbox.config)).toMatchObject({
      asset: { network: "eip155:84532", eip712: { name: "USDC", version: "2" } },
      facilitatorUrl: "https://x402.example/facilitator",
    });
  });

  it("parses each bindings object once: a second call answers the identical result, and an object's host (asked several times per webhook) neither parses again nor builds another logger", async () => {
    const bindings = valid();
    const first = parseConfig(bindings);
    expect(parseConfig(bindings)).toBe(first);
    // Other bindings (a test swapping them) are parsed on their own.
    expect(parseConfig({ ...bindings, DISPLAY_NAME: "Other" } as Env)).not.toBe(first);
    const { body } = await openCheckout({ sub: uniqueSub("config-once") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const same = await runInDurableObject(stub, (object: OrderObject) => {
      const [config, again] = [object.host.config(), object.host.config()];
      const [logger, loggerAgain] = [object.host.logger(), object.host.logger()];
      return { config: config === again, logger: logger === loggerAgain };
    });
    expect(same).toEqual({ config: true, logger: true });
  });

  it("signs notifications with MERCHANT_WEBHOOK_SECRET, else (older deployments) MERCHANT_API_TOKEN", () => {
    const own = parseConfig({ ...valid(), MERCHANT_WEBHOOK_SECRET: "webhook-secret-0123456789" });
    const none = parseConfig(valid());
    expect(own.ok && none.ok).toBe(true);
    if (!own.ok || !none.ok) return;
    expect(notificationSecret(own.config)).toBe("webhook-secret-0123456789");
    expect(notificationSecret(none.config)).toBe(none.config.MERCHANT_API_TOKEN);
  });

  it("allows plain http only on loopback, and only against a loopback upstream (the local sandbox)", () => {
    const local = {
      ...valid(),
      UPSTREAM_BASE_URL: "http://127.0.0.1:8788",
      PUBLIC_BASE_URL: "http://127.0.0.1:8787",
      MERCHANT_WEBHOOK_URL: "http://localhost:5173/api/notifications",
    } as Env;
    expect(parseConfig(local).ok).toBe(true);
    // The real service (no override, or a public override) cannot call a loopback worker.
    for (const upstream of [undefined, "https://sandbox-api-merchant.cryptonly.net"]) {
      const result = parseConfig({ ...local, UPSTREAM_BASE_URL: upstream } as Env);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems.join("; ")).toContain("PUBLIC_BASE_URL must be an https:// URL");
      expect(result.problems.join("; ")).toContain("MERCHANT_WEBHOOK_URL must be an https:// URL");
    }
  });

  it("accepts an https merchant webhook URL and a Bearer token with trailing =", () => {
    const e = {
      ...valid(),
      MERCHANT_WEBHOOK_URL: "https://shop.example.com/hook",
      MERCHANT_API_TOKEN: "abc.DEF_ghi~jkl+mno/pqr-st==",
    } as Env;
    expect(parseConfig(e).ok).toBe(true);
  });

  it("the running worker names a non-http UPSTREAM_BASE_URL with 503 config_error", async () => {
    const { app } = await import("../../worker/edge/app.ts");
    const res = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/currencies/fiat"),
      { ...env, UPSTREAM_BASE_URL: "ftp://example.com" } as unknown as Env,
      { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
    );
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("config_error");
    expect(body.error.message).toContain("UPSTREAM_BASE_URL");
  });

  it("UPSTREAM_MAX_RPS defaults to 10 calls a second and takes a whole number", () => {
    const unset = parseConfig(valid());
    expect(unset.ok && unset.config.UPSTREAM_MAX_RPS).toBe(10);
    const set = parseConfig({ ...valid(), UPSTREAM_MAX_RPS: "25" } as Env);
    expect(set.ok && set.config.UPSTREAM_MAX_RPS).toBe(25);
  });

  it("never puts a secret's value into a problem message", () => {
    const e = { ...valid(), ACCOUNT_ID: "secret-looking-value-123", API_KEY: "" } as Env;
    const result = parseConfig(e);
    expect(JSON.stringify(result)).not.toContain("secret-looking-value-123");
  });

  it("the running worker refuses checkouts with 503 config_error when the signing key is missing", async () => {
    const { app } = await import("../../worker/edge/app.ts");
    const broken = { ...env, WEBHOOK_SIGNING_KEY: undefined } as unknown as Env;
    const res = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/checkouts", { method: "POST", body: "{}" }),
      broken,
      { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
    );
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("config_error");
    expect(body.error.message).toContain("WEBHOOK_SIGNING_KEY");
  });

  it("a plain deploy of wrangler.toml (secrets put, [vars] not filled in) answers a checkout with 503 naming the missing vars", async () => {
    const { app } = await import("../../worker/edge/app.ts");
    const e = env as unknown as Record<string, unknown>;
    const deployed = {
      // Bindings, and the secrets `wrangler secret put` would have set; no test var.
      ...Object.fromEntries(
        ["ORDERS", "DEPOSITS", "PAYOUTS", "ASSETS", "CHECKOUT_RATE_LIMIT"].map((k) => [k, e[k]]),
      ),
      ...Object.fromEntries(
        ["API_KEY", "WEBHOOK_SIGNING_KEY", "CHECKOUT_SIGNING_SECRET", "MERCHANT_API_TOKEN"].map(
          (k) => [k, e[k]],
        ),
      ),
      ...inject("shippedVars"),
    } as unknown as Env;
    const res = await app.fetch(
      new Request("https://crypto-checkout.example.workers.dev/v1/checkouts", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: await token({ sub: "deploy-1" }) }),
      }),
      deployed,
      { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
    );
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("config_error");
    for (const name of ["DISPLAY_NAME", "ACCOUNT_ID", "PUBLIC_BASE_URL"])
      expect(body.error.message).toContain(`${name} is required`);
  });

  it("serves with the test configuration", async () => {
    const res = await worker("/");
    expect(res.status).toBe(200);
  });
});
