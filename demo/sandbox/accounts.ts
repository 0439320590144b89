/**
 * @module accounts
 * The sandbox's single tenant account and the account check every object endpoint applies.
 */
import type { SandboxState } from "./state.ts";
import { WireError } from "./wire.ts";

/**
 * Throws 404 `exceptions.account.notFound` (code assumed) unless `accountId` is the
 * configured account.
 * @example
 * requireAccount(state, "00000000-0000-4000-8000-000000000001");
 */
export function requireAccount(state: SandboxState, accountId: string): void {
  if (accountId !== state.options.accountId) {
    throw new WireError(404, "exceptions.account.notFound", "Account not found");
  }
}

/**
 * The body of GET /accounts: the one account the key can use.
 * @example
 * listAccounts(state); // [{ id, name: "Sandbox account", createdAt }]
 */
export function listAccounts(state: SandboxState) {
  return [{ id: state.options.accountId, name: "Sandbox account", createdAt: state.createdAt }];
}
