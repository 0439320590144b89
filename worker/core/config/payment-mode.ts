/**
 * @module
 * Which payment mode the deployment is in, and why: decided by what the service offers, never
 * by its hostname.
 *
 * - `PAYMENT_MODE=hosted`: always the service's payment page (no question asked).
 * - `PAYMENT_MODE=auto` (default): in-page where the service offers the currency lock. The
 *   answer is found per service + account by `PaymentModeObject` (one probe, kept in its
 *   storage for `MODE_RECHECK_MS`, 1 h, then asked again) and remembered in each isolate until
 *   then. A lock the service itself answers as an unknown route (its own envelope and code,
 *   `isUnknownRoute`) switches the deployment to hosted (`switchToHosted`) for the same hour.
 * - No usable answer (service down, key refused, a 404 that is not the service's): the last
 *   kept decision, or hosted for now; the record asks again after `MODE_RETRY_MS` (1 min).
 *   Hosted always works; in-page needs the lock.
 */

import type { LockProbe } from "../../service/currency-lock.ts";
import { LOCK_CURRENCY_PATH, probeCurrencyLock } from "../../service/currency-lock.ts";
import { paymentModeStub } from "../objects/stubs.ts";
import type { Config } from "./config.ts";
import type { CoreEnv } from "./core-env.ts";
import { MODE_RECHECK_MS, type ModeDecision } from "./mode-decision.ts";
import { upstreamBaseUrl, upstreamFor } from "./upstream.ts";

/**
 * The decision a probe's answer gives.
 *
 * @example
 * decisionFromProbe({ found: "absent", status: 404, code: "exceptions.route.notFound" }).mode; // "hosted"
 */
export function decisionFromProbe(probe: LockProbe): ModeDecision {
  if (probe.found === "unknown") {
    return {
      mode: "hosted",
      reason: `PAYMENT_MODE=auto but the service could not be asked whether it offers the currency lock (${probe.why}); hosted until it answers.`,
      settled: false,
    };
  }
  if (probe.found === "offered") {
    return {
      mode: "in-page",
      reason: `PAYMENT_MODE=auto and the service offers the currency lock (POST ${LOCK_CURRENCY_PATH} exists: ${probe.status} to a probe naming no invoice).`,
      settled: true,
    };
  }
  return {
    mode: "hosted",
    reason: `PAYMENT_MODE=auto and the service has no currency lock (POST ${LOCK_CURRENCY_PATH} is an unknown route: ${probe.status}${probe.code ? ` ${probe.code}` : ""}); shoppers choose the currency on its payment page.`,
    settled: true,
  };
}

const FORCED: ModeDecision = {
  mode: "hosted",
  reason: "PAYMENT_MODE=hosted: shoppers always pay on the service's payment page.",
  settled: true,
};

/**
 * Asks the service directly (one probe, nothing remembered): what `npm run doctor` reports and
 * what `PaymentModeObject` stores.
 *
 * @example
 * const { mode, reason } = await askService(config);
 */
export async function askService(config: Config): Promise<ModeDecision> {
  if (config.PAYMENT_MODE === "hosted") return FORCED;
  return decisionFromProbe(await probeCurrencyLock(upstreamFor(config)));
}

/** One record per service + account: another base URL or account is asked afresh. */
export function modeKey(config: Config): string {
  return `${upstreamBaseUrl(config)}|${config.ACCOUNT_ID}`;
}

/** The clock decisions are stamped and expired by; tests move it instead of waiting an hour. */
export const modeClock = { now: (): number => Date.now() };

/** This isolate's copies of settled decisions (one per service + account: bounded by config). */
const memory = new Map<string, ModeDecision>();

/** True while a kept decision from the service holds (forced ones have no `decidedAt`). */
function holds(decision: ModeDecision, now: number): boolean {
  return decision.decidedAt === undefined || decision.decidedAt + MODE_RECHECK_MS > now;
}

function recordFor(env: CoreEnv, config: Config) {
  return paymentModeStub(env, modeKey(config));
}

/**
 * The mode in force for this deployment.
 *
 * @example
 * const { mode } = await paymentModeFor(c.env, c.var.config);
 */
export async function paymentModeFor(env: CoreEnv, config: Config): Promise<ModeDecision> {
  if (config.PAYMENT_MODE === "hosted") return FORCED;
  const key = modeKey(config);
  const now = modeClock.now();
  const known = memory.get(key);
  if (known && holds(known, now)) return known;
  const decision = await recordFor(env, config).decide(now);
  if (decision.settled && holds(decision, now)) memory.set(key, decision);
  else memory.delete(key);
  return decision;
}

/**
 * Records that the service answered a real lock as an unknown route: from now on, until the
 * record asks again (`MODE_RECHECK_MS`), the deployment is hosted (this isolate at once, others
 * when they next ask the record or meet the same answer).
 *
 * @example
 * await switchToHosted(env, config);
 */
export async function switchToHosted(env: CoreEnv, config: Config): Promise<ModeDecision> {
  const decision: ModeDecision = {
    mode: "hosted",
    reason: `PAYMENT_MODE=auto and the service answered a currency lock as an unknown route (POST ${LOCK_CURRENCY_PATH}); shoppers choose the currency on its payment page.`,
    settled: true,
    decidedAt: modeClock.now(),
  };
  memory.set(modeKey(config), decision);
  await recordFor(env, config).record(decision);
  return decision;
}

/** Forgets this isolate's copies (tests: what a fresh isolate starts with). */
export function clearPaymentModeMemory(): void {
  memory.clear();
}
