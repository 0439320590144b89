/**
 * `parseConfig` (worker/core/config/config.ts) as a whole: absent variables get their defaults,
 * and no problem repeats a value (secrets!), whatever is wrong with it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../worker/core/config/config.ts";
import type { CoreEnv } from "../../worker/core/config/core-env.ts";

const valid: Record<string, string> = {
  DISPLAY_NAME: " Shop ",
  API_KEY: "key",
  ACCOUNT_ID: "00000000-0000-4000-8000-000000000001",
  WEBHOOK_SIGNING_KEY: "whsec",
  SANDBOX: "true",
  ORDER_ID_PREFIX: "cc_1",
  DEBUG_LOG: "0",
  CHECKOUT_SIGNING_SECRET: "s".repeat(16),
  MERCHANT_API_TOKEN: "t".repeat(16),
  MERCHANT_WEBHOOK_SECRET: "w".repeat(16),
  MERCHANT_WEBHOOK_URL: "https://shop.example/hooks/",
  ALLOWED_ORIGINS: "https://shop.example/, http://localhost:5173",
  PUBLIC_BASE_URL: " https://pay.example// ",
  PAYMENT_MODE: "hosted",
  PAYMENT_TOLERANCE_PERCENT: "0.5",
  UPSTREAM_MAX_RPS: "20",
  UPSTREAM_BASE_URL: "http://127.0.0.1:8788/",
  X402_PAY_TO: " 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ",
  X402_NETWORK: "eip155:84532",
  X402_FACILITATOR_URL: "https://api.example/x402/",
};
// A fresh object each call: parseConfig caches by identity.
const parse = (env: Record<string, string>) => parseConfig({ ...env } as unknown as CoreEnv);

describe("parseConfig", () => {
  it("the valid sample, each value in its carried form", () => {
    expect(parse(valid)).toEqual({
      ok: true,
      config: {
        ...valid,
        DISPLAY_NAME: "Shop",
        SANDBOX: true,
        DEBUG_LOG: false,
        ALLOWED_ORIGINS: ["https://shop.example", "http://localhost:5173"],
        MERCHANT_WEBHOOK_URL: "https://shop.example/hooks",
        PUBLIC_BASE_URL: "https://pay.example",
        UPSTREAM_MAX_RPS: 20,
        UPSTREAM_BASE_URL: "http://127.0.0.1:8788",
        X402_PAY_TO: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        X402_FACILITATOR_URL: "https://api.example/x402",
      },
    });
  });

  it("absent variables get their defaults", () => {
    const {
      SANDBOX,
      DEBUG_LOG,
      ORDER_ID_PREFIX,
      PAYMENT_MODE,
      PAYMENT_TOLERANCE_PERCENT,
      UPSTREAM_MAX_RPS,
      ALLOWED_ORIGINS,
      X402_NETWORK,
      ...rest
    } = valid;
    const parsed = parse(rest);
    expect(parsed.ok && parsed.config).toMatchObject({
      SANDBOX: false,
      DEBUG_LOG: false,
      ORDER_ID_PREFIX: "cc",
      PAYMENT_MODE: "auto",
      PAYMENT_TOLERANCE_PERCENT: "0",
      UPSTREAM_MAX_RPS: 10,
      ALLOWED_ORIGINS: [],
    });
  });

  it("every problem of the empty configuration names its variable", () => {
    expect(parse({})).toEqual({
      ok: false,
      problems: [
        "DISPLAY_NAME is required",
        "API_KEY is required",
        "ACCOUNT_ID is required",
        "WEBHOOK_SIGNING_KEY is required",
        "CHECKOUT_SIGNING_SECRET is required",
        "MERCHANT_API_TOKEN is required",
        "PUBLIC_BASE_URL is required",
      ],
    });
  });

  it("a refused wallet address is named with the rule it breaks", () => {
    const mixed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
    expect(parse({ ...valid, X402_PAY_TO: mixed })).toEqual({
      ok: false,
      problems: ["X402_PAY_TO is not its EIP-55 checksum spelling (a typo?)"],
    });
    expect(parse({ ...valid, X402_PAY_TO: `0x${"0".repeat(40)}` })).toEqual({
      ok: false,
      problems: ["X402_PAY_TO must not be the zero address"],
    });
  });

  it("no problem repeats a secret's value, whatever is wrong with it", () => {
    const secrets = [
      "API_KEY",
      "WEBHOOK_SIGNING_KEY",
      "CHECKOUT_SIGNING_SECRET",
      "MERCHANT_API_TOKEN",
      "MERCHANT_WEBHOOK_SECRET",
    ];
    // Short, outside the Bearer alphabet, padded, URL-like: each a refusal of some rule.
    const badSecret = fc
      .constantFrom("Zq9", "Zq9 secret value!", " Zq9Zq9Zq9Zq9Zq9Zq9 ", "https://Zq9.example/")
      .chain((value) => fc.constantFrom(value, value.repeat(5)));
    fc.assert(
      fc.property(fc.constantFrom(...secrets), badSecret, (name, value) => {
        const parsed = parse({ ...valid, [name]: value });
        if (!parsed.ok) for (const problem of parsed.problems) expect(problem).not.toContain("Zq9");
      }),
      { numRuns: 200 },
    );
  });
});
