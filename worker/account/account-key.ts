/**
 * @module
 * Which account index a configuration writes to and reads from: one per service base URL +
 * Account ID (a sandbox and a production deployment of the same account never share one).
 */
import type { Config } from "../config/config.ts";
import { upstreamBaseUrl } from "../config/upstream.ts";

/**
 * The index's name.
 *
 * @example
 * accountKey(config); // "account|https://api.example|00000000-0000-4000-8000-000000000001"
 */
export function accountKey(config: Config): string {
  return `account|${upstreamBaseUrl(config)}|${config.ACCOUNT_ID.toLowerCase()}`;
}
