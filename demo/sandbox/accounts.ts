/**
 * @module accounts
 * The sandbox's single tenant account and the account check every object endpoint applies.
 */
import type { SandboxState } from "./state.ts";
import { WireError } from "./wire.ts";

/**
 * The code for an account the API key cannot use: `exceptions.account.notFound` by default
 * (*assumed*: the service publishes no such code for invoices and deposits), the published
 * `exceptions.withdrawal.tenantAccountNotFound` on the withdrawal routes.
 */
export type AccountNotFoundCode =
  | "exceptions.account.notFound"
  | "exceptions.withdrawal.tenantAccountNotFound";

/**
 * Throws 404 with `code` unless `accountId` is the configured account.
 * @example
 * requireAccount(state, "00000000-0000-4000-8000-000000000001");
 * requireAccount(state, accountId, "exceptions.withdrawal.tenantAccountNotFound");
 */
export function requireAccount(
  state: SandboxState,
  accountId: string,
  code: AccountNotFoundCode = "exceptions.account.notFound",
): void {
  if (accountId !== state.options.accountId) {
    throw new WireError(404, code, "Account not found");
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
