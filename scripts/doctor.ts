/**
 * @module
 * `npm run doctor`: checks the worker's configuration the way the seed's gateway module does
 * on save — API key + Account ID against `GET /accounts` — from the merchant's machine.
 *
 * Reads, later ones winning: `wrangler.toml` [vars], `.dev.vars`, then the process environment.
 * Prints a report; exits 1 when a check fails. Never prints a secret.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseConfig } from "../worker/config/config.ts";
import { runDoctor } from "../worker/config/doctor.ts";
import type { Env } from "../worker/config/env.ts";

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

const env: Record<string, string | undefined> = {
  ...(existsSync("wrangler.toml") ? tomlVars(readFileSync("wrangler.toml", "utf8")) : {}),
  ...(existsSync(".dev.vars") ? dotenv(readFileSync(".dev.vars", "utf8")) : {}),
};
for (const key of Object.keys(process.env)) {
  if (/^[A-Z_]+$/.test(key) && (key in env || key.endsWith("_KEY") || key.endsWith("_URL")))
    env[key] = process.env[key];
}

const parsed = parseConfig(env as unknown as Env);
if (!parsed.ok) {
  console.log("✗ configuration");
  for (const problem of parsed.problems) console.log(`  - ${problem}`);
  process.exit(1);
}
const report = await runDoctor(parsed.config);
console.log(`Payment service: ${report.environment} (${report.baseUrl})`);
for (const check of report.checks)
  console.log(`${check.ok ? "✓" : "✗"} ${check.name}: ${check.message}`);
process.exit(report.ok ? 0 : 1);
