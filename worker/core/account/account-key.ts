/**
 * @module
 * Which service account a configuration talks to: one key per service base URL + Account ID
 * (a sandbox and a production deployment of the same account never share one). The objects
 * kept once per account are named by it: the account index, the upstream budget
 * (`budget/`) and the reconciler (`reconciler/`), each in its own namespace.
 */
import type { Config } from "../config/config.ts";
import { upstreamBaseUrl } from "../config/upstream.ts";

/**
 * The account's key (the name of its index, budget and reconciler objects).
 *
 * @example
 * accountKey(config); // "account|https://api.example|00000000-0000-4000-8000-000000000001"
 */
export function accountKey(config: Config): string {
  return `account|${upstreamBaseUrl(config)}|${config.ACCOUNT_ID.toLowerCase()}`;
}
