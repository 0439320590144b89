/**
 * @module
 * Configuration = the gateway module's settings (as the service's API names them), parsed once per
 * isolate (zod, checked by `lib/schema.ts`).
 *
 * Invariant: a bad value is reported by variable *name* only; values (secrets!) never appear in
 * a problem message. Invalid configuration is answered with 503 `config_error` naming the
 * variable, never a 500 deep inside a checkout.
 */
import * as z from "zod/mini";
import { toChecksumAddress } from "../../lib/address-codecs/eip55.ts";
import { check } from "../../lib/schema.ts";
import { BASE, BASE_SEPOLIA, usdcOn } from "../../lib/x402/networks.ts";
import type { CoreEnv } from "./core-env.ts";

/**
 * The default `UPSTREAM_MAX_RPS`: calls per second the whole deployment makes to the service.
 * The service does not publish its per-key limit; 10 covers ten checkout creates a second, and
 * stays within half of a 20-per-second limit (the sandbox's `SANDBOX_RATE_LIMIT=20`): the
 * budget's one-second windows are not aligned with the service's, so two of ours can fall in
 * one of its. The merchant's own backend using the same API key shares the rest.
 */
export const DEFAULT_UPSTREAM_MAX_RPS = 10;

/** The default `ORDER_ID_PREFIX`: orders go upstream as `cc-<invoice number>`. */
export const DEFAULT_ORDER_ID_PREFIX = "cc";

const bool = z.pipe(
  z.optional(z.enum(["true", "false", "1", "0", ""])),
  z.transform((value) => value === "true" || value === "1"),
);

const isLoopback = (host: string) =>
  host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);

/** `new URL`, or null: zod runs later checks even after `urlString` refused, so they must not throw. */
const tryUrl = (raw: string): URL | null => {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
};

/** True for an `http://` URL on a loopback host: a local-development address. */
const isLoopbackHttp = (raw: string) => {
  const u = tryUrl(raw);
  return u?.protocol === "http:" && isLoopback(u.hostname);
};

const LOOPBACK_HTTP_RULE =
  "must be an https:// URL (plain http is allowed only on loopback for local development)";

/**
 * A URL string as zod's `z.url()` takes it, spelled out (zod's URL schema is ≈ 0.4 KB of the
 * gzip bundle, README "Worker bundle size"; `test/unit/config-patterns.test.ts` compares both):
 * refused unless its trimmed form parses (`httpOnly`: and starts `http://` or `https://`, as
 * `z.url({ protocol: /^https?$/ })` requires), and when accepted it becomes its trimmed form
 * without ASCII tabs and newlines (the URL parser ignores those, so they must not move a host).
 */
export function urlString(message: string, httpOnly = false) {
  const accepted = (raw: string) => {
    const trimmed = raw.trim();
    return (!httpOnly || /^https?:\/\//i.test(trimmed)) && URL.canParse(trimmed);
  };
  // Checks run on after a refusal: the value is rewritten only when accepted.
  return z.string().check(
    z.refine(accepted, message),
    z.overwrite((raw: string) => (accepted(raw) ? raw.trim().replace(/[\t\n\r]/g, "") : raw)),
  );
}

/**
 * A URL the service or the worker calls: https, or loopback http. Loopback http is further
 * allowed only against a loopback upstream (the local sandbox); `parseConfig` checks that.
 */
const callbackUrl = z.pipe(
  urlString("must be a valid https:// URL").check(
    z.refine((raw: string) => {
      const u = tryUrl(raw);
      // An unparsable URL is already named by `urlString` above.
      return u === null || u.protocol === "https:" || isLoopbackHttp(raw);
    }, LOOPBACK_HTTP_RULE),
  ),
  z.transform((raw: string) => raw.replace(/\/+$/, "")),
);

/**
 * What the merchant API's Bearer check accepts as a token (RFC 6750 b64token,
 * `edge/http/merchant-auth.ts`): a configured token outside it could never match.
 */
export const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/**
 * A UUID as zod's `z.uuid()` accepts it (its own pattern: any version 1-8 with the RFC 9562
 * variant, and the nil and max UUIDs). A plain regex check keeps zod's UUID schema out of the
 * worker bundle (README "Worker bundle size"); `test/unit/config-patterns.test.ts` compares both.
 */
export const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

const origins = z.pipe(
  z.optional(z.string()),
  z.transform((raw: string | undefined) =>
    (raw ?? "")
      .split(",")
      .map((o) => o.trim().replace(/\/+$/, ""))
      .filter(Boolean),
  ),
);

const secret = (min: number) =>
  z.string().check(z.minLength(min, `must be at least ${min} characters`));

const schema = z.object({
  DISPLAY_NAME: z.string().check(z.trim(), z.minLength(1, "is required")),
  API_KEY: z.string().check(z.minLength(1, "is required")),
  ACCOUNT_ID: z
    .string()
    .check(z.regex(UUID, "must be the account's UUID from the admin account list")),
  WEBHOOK_SIGNING_KEY: z
    .string()
    .check(z.minLength(1, "is required: payments are confirmed only via signed webhooks")),
  SANDBOX: bool,
  ORDER_ID_PREFIX: z._default(
    z.string().check(z.regex(/^[A-Za-z0-9_]{1,24}$/, "must be 1-24 letters, digits or _")),
    DEFAULT_ORDER_ID_PREFIX,
  ),
  DEBUG_LOG: bool,
  CHECKOUT_SIGNING_SECRET: secret(16),
  MERCHANT_API_TOKEN: secret(16).check(
    z.regex(
      BEARER_TOKEN,
      "must use only A-Z a-z 0-9 . _ ~ + / - (and trailing =), as a Bearer token",
    ),
  ),
  /** Signs notifications; absent in deployments made before it existed (`notificationSecret`). */
  MERCHANT_WEBHOOK_SECRET: z.optional(secret(16)),
  MERCHANT_WEBHOOK_URL: z.optional(callbackUrl),
  ALLOWED_ORIGINS: origins,
  PUBLIC_BASE_URL: callbackUrl,
  PAYMENT_MODE: z._default(z.enum(["auto", "hosted"], "must be auto or hosted"), "auto"),
  PAYMENT_TOLERANCE_PERCENT: z._default(
    z
      .string()
      .check(
        z.regex(
          /^(100(\.0+)?|\d{1,2}(\.\d{1,4})?)$/,
          "must be a percentage from 0 to 100 (a decimal such as 0.5)",
        ),
      ),
    "0",
  ),
  UPSTREAM_MAX_RPS: z.pipe(
    z._default(
      z
        .string()
        .check(
          z.regex(
            /^[1-9]\d{0,3}$/,
            "must be a whole number of calls per second from 1 to 9999 (default 10)",
          ),
        ),
      String(DEFAULT_UPSTREAM_MAX_RPS),
    ),
    z.transform((value: string) => Number.parseInt(value, 10)),
  ),
  UPSTREAM_BASE_URL: z.optional(
    z.pipe(
      urlString("must be an http:// or https:// URL", true),
      z.transform((value: string) => value.replace(/\/+$/, "")),
    ),
  ),
  /**
   * The merchant's wallet for x402 payments (`0x` + 40 hex; mixed case must be its EIP-55
   * checksum). Unset: x402 is off. Carried in its EIP-55 spelling.
   */
  X402_PAY_TO: z.optional(
    z.pipe(
      z.string().check(
        z.trim(),
        z.regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address (0x and 40 hex digits)"),
        z.refine((raw: string) => {
          const body = raw.slice(2);
          const oneCase = body === body.toLowerCase() || body === body.toUpperCase();
          return oneCase || toChecksumAddress(raw) === raw;
        }, "is not its EIP-55 checksum spelling (a typo?)"),
        z.refine((raw: string) => !/^0x0{40}$/.test(raw), "must not be the zero address"),
      ),
      z.transform(toChecksumAddress),
    ),
  ),
  /** The x402 network (CAIP-2); default by `SANDBOX` (`x402Network`). */
  X402_NETWORK: z.optional(
    z.string().check(
      z.trim(),
      z.refine(
        (raw: string) => usdcOn(raw) !== null,
        `must be ${BASE} (Base) or ${BASE_SEPOLIA} (Base Sepolia)`,
      ),
    ),
  ),
  /** The service's x402 facilitator; default the service's base URL + `/x402` (`x402FacilitatorUrl`). */
  X402_FACILITATOR_URL: z.optional(
    z.pipe(
      urlString("must be an http:// or https:// URL", true),
      z.transform((value: string) => value.replace(/\/+$/, "")),
    ),
  ),
});

/**
 * Loopback http callbacks make sense only when the upstream is the local sandbox: the real
 * service cannot call a loopback `PUBLIC_BASE_URL`, and a deployed worker cannot reach a
 * loopback merchant backend.
 */
function crossFieldProblems(config: z.output<typeof schema>): string[] {
  // A mainnet network in sandbox mode could take real money for a test order, and the other
  // way round a test network in production would never pay.
  const network = config.X402_NETWORK;
  if (network !== undefined && (network === BASE_SEPOLIA) !== config.SANDBOX) {
    return [
      `X402_NETWORK must be ${config.SANDBOX ? BASE_SEPOLIA : BASE} with SANDBOX=${config.SANDBOX}`,
    ];
  }
  const localUpstream =
    config.UPSTREAM_BASE_URL !== undefined &&
    isLoopback(new URL(config.UPSTREAM_BASE_URL).hostname);
  if (localUpstream) return [];
  const why = `${LOOPBACK_HTTP_RULE}; loopback needs UPSTREAM_BASE_URL on loopback (the local sandbox)`;
  return (["PUBLIC_BASE_URL", "MERCHANT_WEBHOOK_URL"] as const)
    .filter((name) => {
      const value = config[name];
      return value !== undefined && isLoopbackHttp(value);
    })
    .map((name) => `${name} ${why}`);
}

/**
 * The key notifications are signed with: `MERCHANT_WEBHOOK_SECRET`, or `MERCHANT_API_TOKEN` in a
 * deployment that has not set one yet (it keeps working; the doctor warns: whoever can verify
 * notifications could then also call the merchant API).
 *
 * @example
 * await signNotification(body, notificationSecret(config), t);
 */
export function notificationSecret(
  config: Pick<Config, "MERCHANT_WEBHOOK_SECRET" | "MERCHANT_API_TOKEN">,
): string {
  return config.MERCHANT_WEBHOOK_SECRET ?? config.MERCHANT_API_TOKEN;
}

/** Every variable the configuration reads (for tools that collect them, e.g. the doctor). */
export const CONFIG_NAMES = Object.keys(schema.shape) as readonly (keyof typeof schema.shape)[];

/** The parsed configuration. */
export type Config = z.output<typeof schema>;

/** Result of parsing: either a config, or the problems by variable name. */
export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

const cache = new WeakMap<object, ConfigResult>();

/**
 * Parses the bindings. Empty strings count as unset.
 *
 * @example
 * const result = parseConfig(env);
 * if (!result.ok) console.error(result.problems.join("; "));
 */
export function parseConfig(env: CoreEnv): ConfigResult {
  const cached = cache.get(env);
  if (cached) return cached;
  const input: Record<string, unknown> = {};
  for (const key of CONFIG_NAMES) {
    const value = (env as unknown as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") input[key] = value;
  }
  const parsed = check(schema, input);
  const crossProblems = parsed.success ? crossFieldProblems(parsed.data) : [];
  const result: ConfigResult = parsed.success
    ? crossProblems.length === 0
      ? { ok: true, config: parsed.data }
      : { ok: false, problems: crossProblems }
    : {
        ok: false,
        problems: parsed.issues.map((issue) => {
          const name = String(issue.path[0] ?? "config");
          const what = issue.code === "invalid_type" ? "is required" : issue.message;
          return `${name} ${what}`;
        }),
      };
  cache.set(env, result);
  return result;
}
