/**
 * @module
 * The webhook route's reports to the account's index (`webhook-health.ts`), batched per
 * isolate so a storm of forged or mis-signed deliveries costs one index call per
 * `FLUSH_AFTER_MS`, not one per request: refusals for a bad signature are counted in memory
 * and flushed after that delay (in `waitUntil`, after the answer); a verified delivery is
 * reported at most once per `VERIFIED_EVERY_MS` per isolate (the doctor needs "recently", not
 * every one).
 *
 * Bound: one pending batch per account key per isolate (a deployment has one key).
 * Trade-off: a batch is lost if the isolate dies within `FLUSH_AFTER_MS` of it.
 */
import type { Config } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { accountStub } from "../objects/stubs.ts";
import { accountKey } from "./account-key.ts";
import type { WebhookTally } from "./webhook-health.ts";

/** How long refusals gather before one index call carries them. */
export const FLUSH_AFTER_MS = 2_000;
/** How often one isolate reports "a webhook verified". */
export const VERIFIED_EVERY_MS = 60_000;

const pending = new Map<string, WebhookTally>();
const verifiedReported = new Map<string, number>();

/** What the route gives the tally: bindings, configuration, and the request's `waitUntil`. */
export interface TallyContext {
  env: CoreEnv;
  config: Config;
  waitUntil: (promise: Promise<unknown>) => void;
}

function batchFor(key: string, at: TallyContext): WebhookTally {
  let batch = pending.get(key);
  if (!batch) {
    batch = { refused: 0, lastRefusedAt: null, lastVerifiedAt: null };
    pending.set(key, batch);
    const flush = async () => {
      await new Promise((resolve) => setTimeout(resolve, FLUSH_AFTER_MS));
      const sent = pending.get(key);
      pending.delete(key);
      if (sent) await accountStub(at.env, key).recordWebhooks(sent);
    };
    at.waitUntil(flush().catch(() => {}));
  }
  return batch;
}

/**
 * Counts one delivery refused for a bad signature.
 *
 * @example
 * tallyRefused({ env: c.env, config, waitUntil: (p) => c.executionCtx.waitUntil(p) });
 */
export function tallyRefused(at: TallyContext): void {
  const batch = batchFor(accountKey(at.config), at);
  batch.refused += 1;
  batch.lastRefusedAt = new Date().toISOString();
}

/**
 * Notes one delivery whose signature verified (at most once a minute per isolate).
 *
 * @example
 * tallyVerified({ env: c.env, config, waitUntil: (p) => c.executionCtx.waitUntil(p) });
 */
export function tallyVerified(at: TallyContext): void {
  const key = accountKey(at.config);
  const now = Date.now();
  if (now - (verifiedReported.get(key) ?? 0) < VERIFIED_EVERY_MS) return;
  verifiedReported.set(key, now);
  batchFor(key, at).lastVerifiedAt = new Date(now).toISOString();
}
