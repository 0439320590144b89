/**
 * @module
 * Parses the configuration once per isolate and refuses to serve when it is invalid, with
 * 503 `config_error` naming each bad variable (never its value). The service's rule "saving a key
 * and account without the webhook signing key is blocked" becomes: no checkout is served until
 * `WEBHOOK_SIGNING_KEY` is set.
 */
import { createMiddleware } from "hono/factory";
import { parseConfig } from "../../core/config/config.ts";
import { configLogger } from "../../core/config/logger.ts";
import { errorResponse } from "../../lib/api-error.ts";
import type { AppEnv } from "./types.ts";

/** Sets `c.var.config` and `c.var.log`, or answers 503. */
export const requireConfig = createMiddleware<AppEnv>(async (c, next) => {
  const result = parseConfig(c.env);
  if (!result.ok) {
    console.log(
      JSON.stringify({ level: "error", event: "config.invalid", problems: result.problems }),
    );
    return errorResponse(
      503,
      "config_error",
      `The checkout is not configured: ${result.problems.join("; ")}.`,
    );
  }
  const config = result.config;
  c.set("config", config);
  c.set("log", configLogger(config));
  await next();
});
