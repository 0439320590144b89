/**
 * @module
 * The doctor's one upstream call (`GET /accounts`: does the service accept the API key, and
 * which accounts does it reach), reused for `ACCOUNTS_CHECK_TTL_MS` so that asking the doctor
 * again and again costs the service one call per period, not one per ask.
 *
 * Per isolate, not per deployment: the reused answer lives in this module's memory. A
 * deployment runs on a handful of isolates, so it makes at most one call per isolate per period,
 * and each call still passes the deployment's upstream budget; a per-deployment cache would
 * need a Durable Object round trip on every ask (the very cost it saves is an upstream call of
 * similar latency) and a storage write per check, for a route a person calls by hand.
 *
 * Keyed by the service account (`accountKey`: base URL + Account ID) and a digest of the API
 * key, so a deployment whose settings changed is checked at once, never answered from the
 * previous key's result; the key itself is never kept. Failures are reused too (a 401, an
 * unreachable service): an outage must not turn doctor refreshes into extra upstream calls.
 * Only settled answers are kept, never a pending promise: a promise started by one request
 * and awaited by another crosses request contexts in workerd, and hangs if the first request
 * is cancelled; so asks that arrive while the first call is in flight make their own.
 */
import { accountKey } from "../../core/account/account-key.ts";
import type { Config } from "../../core/config/config.ts";
import { MERCHANT_CALL, upstreamFor } from "../../core/config/upstream.ts";
import type { Account } from "../../service/types.ts";

/** How long one answer of the service is reused. */
export const ACCOUNTS_CHECK_TTL_MS = 30_000;

/** Most configurations remembered at once (tests and `npm run doctor` see several). */
const MAX_KEPT = 16;

/** What `GET /accounts` answered: the accounts, or the error it threw. */
type Answer = { ok: true; accounts: Account[] } | { ok: false; error: unknown };

const kept = new Map<string, { at: number; answer: Answer }>();

/** The cache key: the service account and a SHA-256 digest of the API key (hex). */
async function keyOf(config: Config): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(config.API_KEY));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${accountKey(config)}|${hex}`;
}

/**
 * The service's answer to `GET /accounts` for this configuration, as `listAccounts` gives it
 * (the accounts, or the same error thrown): the one kept from the last
 * `ACCOUNTS_CHECK_TTL_MS` (`now` is when it is asked; tests pass a later one), else asked now.
 *
 * @example
 * const accounts = await keptAccounts(config); // throws UpstreamError like listAccounts()
 */
export async function keptAccounts(config: Config, now = Date.now()): Promise<Account[]> {
  const key = await keyOf(config);
  let hit = kept.get(key);
  if (!hit || now - hit.at >= ACCOUNTS_CHECK_TTL_MS) {
    // The merchant's own call: the budget's first lane, ahead of every shopper.
    const answer = await upstreamFor(config, MERCHANT_CALL)
      .listAccounts()
      .then(
        (accounts): Answer => ({ ok: true, accounts }),
        (error: unknown): Answer => ({ ok: false, error }),
      );
    hit = { at: now, answer };
    kept.delete(key);
    kept.set(key, hit);
    // A Map iterates oldest first: drop the oldest when too many configurations were seen.
    if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  }
  if (!hit.answer.ok) throw hit.answer.error;
  return hit.answer.accounts;
}
