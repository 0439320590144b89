/**
 * @module
 * The variables `npm run doctor` checks: every name the worker's configuration reads, from
 * `wrangler.toml` [vars], then `.dev.vars`, then the process environment (later ones winning),
 * the way `wrangler dev` plus exported shell variables would configure the worker.
 *
 * Invariant: every name of the config schema is read from the environment (the doctor once
 * copied only some names, so an exported CHECKOUT_SIGNING_SECRET was ignored); names outside
 * the schema are never collected, so unrelated shell secrets never reach the report.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_NAMES } from "../worker/core/config/config.ts";

/** `KEY = "value"` lines of the `[vars]` table: all this project's wrangler.toml uses. */
function tomlVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inVars = false;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.startsWith("[")) inVars = trimmed === "[vars]";
    const m = inVars ? /^([A-Z_][A-Z0-9_]*)\s*=\s*"([^"]*)"/.exec(trimmed) : null;
    if (m?.[1]) out[m[1]] = m[2] ?? "";
  }
  return out;
}

function dotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (m?.[1]) out[m[1]] = m[2] ?? "";
  }
  return out;
}

/**
 * The doctor's environment for a project directory.
 *
 * @example
 * const env = doctorEnv(process.cwd(), process.env);
 */
export function doctorEnv(
  dir: string,
  processEnv: Record<string, string | undefined>,
): Record<string, string> {
  const read = (name: string) => {
    const path = join(dir, name);
    return existsSync(path) ? readFileSync(path, "utf8") : "";
  };
  const layers = [tomlVars(read("wrangler.toml")), dotenv(read(".dev.vars")), processEnv];
  const env: Record<string, string> = {};
  for (const name of CONFIG_NAMES) {
    for (const layer of layers) {
      const value = layer[name];
      if (value !== undefined) env[name] = value;
    }
  }
  return env;
}
