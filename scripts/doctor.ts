/**
 * @module
 * `npm run doctor`: checks the worker's configuration the way the service's gateway module does
 * on save — API key + Account ID against `GET /accounts` — from the merchant's machine.
 *
 * Reads every config variable (`doctor-env.ts`): `wrangler.toml` [vars], `.dev.vars`, then the
 * process environment, later ones winning.
 * Prints a report; exits 1 when a check fails. Never prints a secret.
 */
import { parseConfig } from "../worker/core/config/config.ts";
import { runDoctor } from "../worker/edge/doctor/doctor.ts";
import type { Env } from "../worker/edge/env.ts";
import { doctorEnv } from "./doctor-env.ts";

const env = doctorEnv(process.cwd(), process.env);
const parsed = parseConfig(env as unknown as Env);
if (!parsed.ok) {
  console.log("✗ configuration");
  for (const problem of parsed.problems) console.log(`  - ${problem}`);
  process.exit(1);
}
const report = await runDoctor(parsed.config);
console.log(`Payment service: ${report.environment} (${report.baseUrl})`);
console.log(`Payment mode: ${report.paymentMode.mode} — ${report.paymentMode.reason}`);
console.log(`Upstream budget: ${report.upstreamBudget.message}`);
for (const check of report.checks)
  console.log(`${check.ok ? (check.warning ? "!" : "✓") : "✗"} ${check.name}: ${check.message}`);
process.exit(report.ok ? 0 : 1);
