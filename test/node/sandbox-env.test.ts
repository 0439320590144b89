/**
 * The sandbox's configuration: one env → options mapping with the design's defaults, the
 * same defaults from code, and a clear error (exit 1) for an invalid SANDBOX_PORT.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../demo/sandbox/app.ts";
import { optionsFromEnv } from "../../demo/sandbox/env.ts";

const DESIGN_WEBHOOK_URL = "http://127.0.0.1:8787/webhooks/payment";

describe("sandbox configuration", () => {
  it("defaults to the design's values when nothing is set (empty counts as unset)", () => {
    const expected = {
      port: 8788,
      apiKey: "sk_sandbox_demo",
      accountId: "00000000-0000-4000-8000-000000000001",
      webhookSigningKey: "whsec_sandbox_demo",
      webhookUrl: DESIGN_WEBHOOK_URL,
      extraCurrency: null,
      currencyLock: true,
      rateLimit: null,
      x402Wallets: ["0x5A4Db0c0FfEE000000000000000000000000d3e0"],
      x402ConfirmMs: 3000,
    };
    expect(optionsFromEnv({})).toEqual(expected);
    expect(
      optionsFromEnv({
        SANDBOX_PORT: "",
        SANDBOX_API_KEY: "",
        SANDBOX_ACCOUNT_ID: "",
        SANDBOX_WEBHOOK_SIGNING_KEY: "",
        SANDBOX_WEBHOOK_URL: "",
        SANDBOX_EXTRA_CURRENCY: "",
        SANDBOX_CURRENCY_LOCK: "",
        SANDBOX_RATE_LIMIT: "",
        SANDBOX_X402_WALLETS: "",
        SANDBOX_X402_CONFIRM_MS: "",
      }),
    ).toEqual(expected);
  });

  it("code and CLI share the defaults", () => {
    const sb = createSandbox({});
    try {
      const { port: _port, extraCurrency: _extra, ...fromEnv } = optionsFromEnv({});
      expect(sb.options).toMatchObject(fromEnv);
    } finally {
      sb.dispose();
    }
  });

  it("reads every variable; webhook URL off = null", () => {
    expect(
      optionsFromEnv({
        SANDBOX_PORT: "0",
        SANDBOX_API_KEY: "k",
        SANDBOX_ACCOUNT_ID: "a",
        SANDBOX_WEBHOOK_SIGNING_KEY: "s",
        SANDBOX_WEBHOOK_URL: "off",
        SANDBOX_EXTRA_CURRENCY: "USDC_BASE:Base:evm",
        SANDBOX_CURRENCY_LOCK: "off",
        SANDBOX_RATE_LIMIT: "20",
        SANDBOX_X402_WALLETS: "0x1111111111111111111111111111111111111111",
        SANDBOX_X402_CONFIRM_MS: "250",
      }),
    ).toEqual({
      port: 0,
      apiKey: "k",
      accountId: "a",
      webhookSigningKey: "s",
      webhookUrl: null,
      extraCurrency: "USDC_BASE:Base:evm",
      currencyLock: false,
      rateLimit: 20,
      x402Wallets: ["0x1111111111111111111111111111111111111111"],
      x402ConfirmMs: 250,
    });
    expect(optionsFromEnv({ SANDBOX_CURRENCY_LOCK: "on" }).currencyLock).toBe(true);
    for (const bad of ["0", "-1", "2.5", "many", "1e3"]) {
      expect(() => optionsFromEnv({ SANDBOX_RATE_LIMIT: bad }), bad).toThrow(
        /SANDBOX_RATE_LIMIT must be a whole number/,
      );
    }
    expect(() => optionsFromEnv({ SANDBOX_CURRENCY_LOCK: "yes" })).toThrow(
      /SANDBOX_CURRENCY_LOCK must be on or off/,
    );
    expect(optionsFromEnv({ SANDBOX_PORT: "9000" }).port).toBe(9000);
  });

  it("an invalid port is an error naming SANDBOX_PORT", () => {
    for (const bad of ["http", "65536", "-1", " 80", "0x50", "1e3", "80.5", "123456"]) {
      expect(() => optionsFromEnv({ SANDBOX_PORT: bad }), bad).toThrow(/SANDBOX_PORT .*0 to 65535/);
    }
  });

  it("the CLI exits 1 with one line for an invalid port", async () => {
    const run = promisify(execFile)(process.execPath, ["demo/sandbox/main.ts"], {
      env: { ...process.env, SANDBOX_PORT: "nope" },
      timeout: 20_000,
    });
    const failure = (await run.then(
      () => null,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string } | null;
    expect(failure?.code).toBe(1);
    expect(failure?.stderr?.trim()).toBe(
      'sandbox: SANDBOX_PORT must be an integer from 0 to 65535 (0 = any free port), got "nope"',
    );
  });
});
