/**
 * @module
 * Configuration = the seed's gateway-module settings, parsed with zod once per isolate.
 *
 * Invariant: a bad value is reported by variable *name* only; values (secrets!) never appear in
 * a problem message. Invalid configuration is answered with 503 `config_error` naming the
 * variable, never a 500 deep inside a checkout.
 */
import * as z from "zod/mini";
import type { Env } from "./env.ts";

/** The default `ORDER_ID_PREFIX`: orders go upstream as `cc-<invoice number>`. */
export const DEFAULT_ORDER_ID_PREFIX = "cc";

const bool = z.pipe(
  z.optional(z.enum(["true", "false", "1", "0", ""])),
  z.transform((v: "true" | "false" | "1" | "0" | "" | undefined) => v === "true" || v === "1"),
);

const isLoopback = (host: string) =>
  host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);

const publicUrl = z.pipe(
  z.url().check(
    z.refine((raw: string) => {
      const u = new URL(raw);
      return u.protocol === "https:" || (u.protocol === "http:" && isLoopback(u.hostname));
    }, "must be an https:// URL (plain http is allowed only on loopback for local development)"),
  ),
  z.transform((raw: string) => raw.replace(/\/+$/, "")),
);

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
  ACCOUNT_ID: z.uuid("must be the account's UUID from the admin account list"),
  WEBHOOK_SIGNING_KEY: z
    .string()
    .check(z.minLength(1, "is required: payments are confirmed only via signed webhooks")),
  SANDBOX: bool,
  ORDER_ID_PREFIX: z.pipe(
    z.optional(
      z.string().check(z.regex(/^[A-Za-z0-9_]{1,24}$/, "must be 1-24 letters, digits or _")),
    ),
    z.transform((v: string | undefined) => v ?? DEFAULT_ORDER_ID_PREFIX),
  ),
  DEBUG_LOG: bool,
  CHECKOUT_SIGNING_SECRET: secret(16),
  MERCHANT_API_TOKEN: secret(16),
  MERCHANT_WEBHOOK_URL: z.optional(z.url()),
  ALLOWED_ORIGINS: origins,
  PUBLIC_BASE_URL: publicUrl,
  UPSTREAM_BASE_URL: z.pipe(
    z.optional(z.url()),
    z.transform((v: string | undefined) => v?.replace(/\/+$/, "")),
  ),
});

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
export function parseConfig(env: Env): ConfigResult {
  const cached = cache.get(env);
  if (cached) return cached;
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = (env as unknown as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") input[key] = value;
  }
  const parsed = schema.safeParse(input);
  const result: ConfigResult = parsed.success
    ? { ok: true, config: parsed.data }
    : {
        ok: false,
        problems: parsed.error.issues.map((issue) => {
          const name = String(issue.path[0] ?? "config");
          const what = issue.code === "invalid_type" ? "is required" : issue.message;
          return `${name} ${what}`;
        }),
      };
  cache.set(env, result);
  return result;
}
