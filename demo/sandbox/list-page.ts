/**
 * @module list-page
 * The service's list endpoints, one shape for all three (`GET /invoice/list`, `/deposit/list`,
 * `/withdrawal/list`): `accountId` (required, the key's account), optional `status` (one of
 * the kind's statuses), `page` (from 1) and `limit` (1–100, default 20); newest first; full
 * records, each through the kind's own record view; `{data, total, page, limit, hasMore}`.
 * `pageOf` is the same page without the account (the x402 settlements' list).
 */
import { requireAccount } from "./accounts.ts";
import { queryInt } from "./fields.ts";
import type { SandboxState } from "./state.ts";
import { invalidQuery, listResponse } from "./wire.ts";

/** Largest `limit` a page takes. */
export const MAX_PAGE_LIMIT = 100;

/**
 * Answers one page of `records` (oldest first, as stored) for a list request.
 * @example
 * return listPage(state, url.searchParams, DEPOSIT_STATUSES, state.deposits.values(), depositView);
 */
export function listPage<R extends { status: string }>(
  state: SandboxState,
  q: URLSearchParams,
  statuses: readonly string[],
  records: Iterable<R>,
  view: (record: R) => unknown,
): Response {
  const accountId = q.get("accountId");
  if (!accountId) throw invalidQuery("accountId is required");
  requireAccount(state, accountId);
  return pageOf(q, statuses, records, view);
}

/**
 * One page of `records` (oldest first, as stored) by `status`, `page` and `limit`, newest
 * first: `listPage` without the account, for lists that belong to the API key itself (the
 * x402 settlements) and whose records the caller has already filtered further.
 * @example
 * return pageOf(url.searchParams, X402_STATUSES, matching, (s) => s);
 */
export function pageOf<R extends { status: string }>(
  q: URLSearchParams,
  statuses: readonly string[],
  records: Iterable<R>,
  view: (record: R) => unknown,
): Response {
  const status = q.get("status");
  if (status && !statuses.includes(status)) {
    throw invalidQuery(`status must be one of ${statuses.join(", ")}`);
  }
  const page = queryInt(q, "page", 1, 1_000_000);
  const limit = queryInt(q, "limit", 20, MAX_PAGE_LIMIT);
  const all = [...records].reverse().filter((r) => !status || r.status === status);
  const slice = all.slice((page - 1) * limit, page * limit);
  return listResponse(slice.map(view), all.length, page, limit);
}
