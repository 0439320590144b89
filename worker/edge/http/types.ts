/**
 * @module
 * The Hono environment every route shares: bindings, and per-request variables set by
 * `requireConfig`.
 */
import type { Config } from "../../core/config/config.ts";
import type { Logger } from "../../lib/log.ts";
import type { Env } from "../env.ts";

export type AppEnv = {
  Bindings: Env;
  Variables: { config: Config; log: Logger };
};
