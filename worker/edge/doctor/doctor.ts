/**
 * @module
 * The gateway module's "validate on save" (the service's API): checks API key + Account ID with `GET /accounts`, and says
 * in plain words what a failure means (wrong key, wrong environment, wrong account, no answer).
 * Also says which payment mode is in force and why (`payment-mode.ts`), and the deployment's
 * upstream budget (`UPSTREAM_MAX_RPS`).
 * Shared by `GET /v1/doctor` and `npm run doctor`.
 */

import type { AccountHealth } from "../../core/account/account-rpc.ts";
import type { Config } from "../../core/config/config.ts";
import type { ModeDecision } from "../../core/config/mode-decision.ts";
import { askService } from "../../core/config/payment-mode.ts";
import { MERCHANT_CALL, upstreamBaseUrl, upstreamFor } from "../../core/config/upstream.ts";
import { UpstreamError } from "../../service/errors.ts";
import { originsFailure, originsWarning } from "./doctor-origins.ts";
import type { DoctorCheck, DoctorReport } from "./doctor-report.ts";
import { accountChecks, webhookSecretWarning } from "./doctor-webhooks.ts";

/**
 * Runs the checks. Never throws; never mentions the key itself. `paymentMode` gives the mode in
 * force (the worker passes its remembered decision); by default the service is asked now.
 * `accountHealth` (the worker's `GET /v1/doctor` only: `npm run doctor` cannot see the
 * deployment's index) adds failed notifications and the webhooks refused and verified.
 *
 * @example
 * const report = await runDoctor(config);
 * if (!report.ok) console.log(report.checks.filter((c) => !c.ok));
 */
export async function runDoctor(
  config: Config,
  paymentMode: () => Promise<ModeDecision> = () => askService(config),
  accountHealth?: () => Promise<AccountHealth>,
): Promise<DoctorReport> {
  const environment = config.SANDBOX ? "sandbox" : "production";
  const other = config.SANDBOX ? "production" : "sandbox";
  const baseUrl = upstreamBaseUrl(config);
  const checks: DoctorCheck[] = [
    { name: "config", ok: true, message: "All required settings are present and parse." },
  ];
  const origins = originsFailure(config) ?? originsWarning(config);
  if (origins) checks.push(origins);
  const secret = webhookSecretWarning(config);
  if (secret) checks.push(secret);
  try {
    // The merchant's own call: the budget's first lane, ahead of every shopper.
    const accounts = await upstreamFor(config, MERCHANT_CALL).listAccounts();
    checks.push({
      name: "api_key",
      ok: true,
      message: `The ${environment} service accepted the API key.`,
    });
    const found = accounts.some((a) => a.id.toLowerCase() === config.ACCOUNT_ID.toLowerCase());
    checks.push(
      found
        ? {
            name: "account_id",
            ok: true,
            message: `Account ${config.ACCOUNT_ID} belongs to this API key.`,
          }
        : {
            name: "account_id",
            ok: false,
            message: `ACCOUNT_ID ${config.ACCOUNT_ID} is not one of this key's ${accounts.length} account(s). Copy the Account ID from the admin account list.`,
          },
    );
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 401) {
      checks.push({
        name: "api_key",
        ok: false,
        message: `The ${environment} service rejected the API key. Keys work only in their own environment: SANDBOX=${config.SANDBOX} sends it to the ${environment} service, so if this is a ${other} key, set SANDBOX=${!config.SANDBOX}; otherwise create a new key under Settings → Security → API keys.`,
      });
    } else {
      const why =
        error instanceof UpstreamError
          ? `${error.kind}${error.status ? ` ${error.status}` : ""}`
          : "error";
      checks.push({
        name: "api_key",
        ok: false,
        message: `Could not reach the ${environment} service at ${baseUrl} (${why}). Check UPSTREAM_BASE_URL / SANDBOX and the network.`,
      });
    }
  }
  if (accountHealth) {
    try {
      checks.push(...accountChecks(await accountHealth(), config));
    } catch {
      checks.push({
        name: "webhooks",
        ok: true,
        warning: true,
        message: "The account's index could not be read just now; ask again in a moment.",
      });
    }
  }
  const { mode, reason } = await paymentMode().catch(
    (): ModeDecision => ({
      mode: "hosted",
      reason: "the mode could not be decided",
      settled: false,
    }),
  );
  return {
    ok: checks.every((c) => c.ok),
    environment,
    baseUrl,
    paymentMode: { mode, reason },
    upstreamBudget: {
      maxCallsPerSecond: config.UPSTREAM_MAX_RPS,
      message: `At most ${config.UPSTREAM_MAX_RPS} calls a second to the service for the whole deployment (UPSTREAM_MAX_RPS), shoppers' and merchants' first, reconciliation last; keep it at most half the service's limit for this API key.`,
    },
    checks,
  };
}
