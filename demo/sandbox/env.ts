/**
 * @module env
 * The one mapping from `SANDBOX_*` environment variables to start options, with the design's
 * defaults (`DEFAULT_OPTIONS` in `state.ts`, port `DEFAULT_PORT`). An empty variable counts as
 * unset. An invalid port or switch is an error naming the variable, never a silent default.
 */
import type { StartOptions } from "./server.ts";
import { DEFAULT_OPTIONS } from "./state.ts";
import { parseX402Wallets } from "./x402-wallets.ts";

/** Port of `npm run sandbox` when `SANDBOX_PORT` is unset (the design's sandbox port). */
export const DEFAULT_PORT = 8788;

/** The variables read; anything else in the environment is ignored. */
export interface SandboxEnv {
  SANDBOX_PORT?: string;
  SANDBOX_API_KEY?: string;
  SANDBOX_ACCOUNT_ID?: string;
  SANDBOX_WEBHOOK_SIGNING_KEY?: string;
  /** A URL, or `off` to record deliveries without sending them. */
  SANDBOX_WEBHOOK_URL?: string;
  /** One more currency on a network of your choice: `CODE:Network[:evm]` (`extra-currency.ts`). */
  SANDBOX_EXTRA_CURRENCY?: string;
  /** `on` (default) offers the currency-lock extension; `off` serves the public API only. */
  SANDBOX_CURRENCY_LOCK?: string;
  /** API requests a second per API key (a whole number ≥ 1); unset = no limit. */
  SANDBOX_RATE_LIMIT?: string;
  /** The tenant's registered x402 wallets, comma-separated 0x addresses; unset = the demo one. */
  SANDBOX_X402_WALLETS?: string;
  /** Milliseconds an x402 settlement takes to confirm (0 to 600000); unset = 3000. */
  SANDBOX_X402_CONFIRM_MS?: string;
}

/**
 * Start options from the environment. Throws `Error` for a port that is not an integer
 * from 0 to 65535 (0 = any free port).
 * @example
 * optionsFromEnv({}); // { port: 8788, apiKey: "sk_sandbox_demo", …, webhookUrl: "http://127.0.0.1:8787/webhooks/payment" }
 * optionsFromEnv({ SANDBOX_WEBHOOK_URL: "off" }).webhookUrl; // null
 * optionsFromEnv({ SANDBOX_CURRENCY_LOCK: "off" }).currencyLock; // false
 * optionsFromEnv({ SANDBOX_RATE_LIMIT: "20" }).rateLimit; // 20
 * optionsFromEnv({ SANDBOX_X402_WALLETS: "0x5a4db0c0ffee000000000000000000000000d3e0" }).x402Wallets; // ["0x5A4Db0c0FfEE000000000000000000000000d3e0"]
 * optionsFromEnv({ SANDBOX_PORT: "http" }); // throws
 */
export function optionsFromEnv(env: SandboxEnv): StartOptions & { port: number } {
  const set = (value: string | undefined) => (value === undefined || value === "" ? null : value);
  const portText = set(env.SANDBOX_PORT);
  const webhook = set(env.SANDBOX_WEBHOOK_URL);
  return {
    port: portText === null ? DEFAULT_PORT : parsePort(portText),
    apiKey: set(env.SANDBOX_API_KEY) ?? DEFAULT_OPTIONS.apiKey,
    accountId: set(env.SANDBOX_ACCOUNT_ID) ?? DEFAULT_OPTIONS.accountId,
    webhookSigningKey: set(env.SANDBOX_WEBHOOK_SIGNING_KEY) ?? DEFAULT_OPTIONS.webhookSigningKey,
    webhookUrl: webhook === "off" ? null : (webhook ?? DEFAULT_OPTIONS.webhookUrl),
    extraCurrency: set(env.SANDBOX_EXTRA_CURRENCY),
    currencyLock: parseSwitch(set(env.SANDBOX_CURRENCY_LOCK), DEFAULT_OPTIONS.currencyLock),
    rateLimit: parseRate(set(env.SANDBOX_RATE_LIMIT)),
    x402Wallets: parseX402Wallets(set(env.SANDBOX_X402_WALLETS)),
    x402ConfirmMs: parseConfirmMs(set(env.SANDBOX_X402_CONFIRM_MS)),
  };
}

function parseConfirmMs(text: string | null): number {
  if (text === null) return DEFAULT_OPTIONS.x402ConfirmMs;
  // Digits only, as for the port: at most 600000 ms, the longest a test would wait.
  const ms = /^\d{1,6}$/.test(text) ? Number.parseInt(text, 10) : Number.NaN;
  if (!(ms >= 0 && ms <= 600_000)) {
    throw new Error(
      `SANDBOX_X402_CONFIRM_MS must be a whole number of milliseconds from 0 to 600000, got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}

function parseSwitch(text: string | null, fallback: boolean): boolean {
  if (text === null) return fallback;
  if (text === "on" || text === "off") return text === "on";
  throw new Error(`SANDBOX_CURRENCY_LOCK must be on or off, got ${JSON.stringify(text)}`);
}

function parseRate(text: string | null): number | null {
  if (text === null) return DEFAULT_OPTIONS.rateLimit;
  if (/^[1-9]\d{0,5}$/.test(text)) return Number.parseInt(text, 10);
  throw new Error(
    `SANDBOX_RATE_LIMIT must be a whole number of requests per second from 1 to 999999, got ${JSON.stringify(text)}`,
  );
}

function parsePort(text: string): number {
  // Digits only: Number() would also take " 80", "0x50", "1e3" or "".
  const port = /^\d{1,5}$/.test(text) ? Number.parseInt(text, 10) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(
      `SANDBOX_PORT must be an integer from 0 to 65535 (0 = any free port), got ${JSON.stringify(text)}`,
    );
  }
  return port;
}
