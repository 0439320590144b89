/**
 * @module
 * The Hono environment every route shares: bindings, and per-request variables set by
 * `requireConfig`.
 */
import type { Config } from "../config/config.ts";
import type { Env } from "../config/env.ts";
import type { Logger } from "./log.ts";

export type AppEnv = {
  Bindings: Env;
  Variables: { config: Config; log: Logger };
};
