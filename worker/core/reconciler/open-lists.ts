/**
 * @module
 * Which list pages hold an upstream kind's open objects, and how a listed record compares with
 * what its object knows: the pure half of a sweep (`reconciler-object.ts`).
 *
 * Open = not final at the service (`core/converge/status-rank.ts`): an object that left these lists
 * is read once with a single `GET` by its own object (it may have ended, or be past them).
 */

import type { UpstreamClient } from "../../service/client.ts";
import type { Page } from "../../service/types.ts";
import { type Facts, isOlder } from "../converge/facts.ts";
import { recordFingerprint } from "../converge/record-fingerprint.ts";
import type { UpstreamKind } from "../converge/status-rank.ts";
import type { ListedRecord } from "./reconciler-rpc.ts";
import type { Tracked } from "./tracked.ts";

/** The statuses whose list pages a sweep walks, per kind (every status below the top rank). */
export const OPEN_STATUSES: Readonly<Record<UpstreamKind, readonly string[]>> = {
  invoice: ["created", "processing", "suspended", "partially_paid"],
  deposit: ["created", "processing", "suspended"],
  withdrawal: ["created", "processing"],
};

/** Records per page (the service's maximum). */
export const PAGE_LIMIT = 100;

/**
 * One page of `kind`'s open objects in `status`.
 *
 * @example
 * const page = await openPage(client, "invoice", "processing", 1);
 */
export async function openPage(
  client: UpstreamClient,
  kind: UpstreamKind,
  status: string,
  page: number,
): Promise<Page<ListedRecord>> {
  const input = { status, page, limit: PAGE_LIMIT };
  const wrap = <T, K extends UpstreamKind>(p: Page<T>, k: K) => ({
    ...p,
    items: p.items.map((record) => ({ kind: k, record }) as ListedRecord),
  });
  if (kind === "invoice") return wrap(await client.listInvoices(input), kind);
  if (kind === "deposit") return wrap(await client.listDeposits(input), kind);
  return wrap(await client.listWithdrawals(input), kind);
}

/** The facts a listed record shows (`core/converge/facts.ts`), as each object reads them. */
export function listedFacts(listed: ListedRecord): Facts {
  if (listed.kind === "invoice") {
    return { status: listed.record.status, received: listed.record.cryptoAmountReceived ?? "0" };
  }
  return { status: listed.record.status ?? "created", received: "0" };
}

/** The id of a listed record. */
export const listedId = (listed: ListedRecord): string => listed.record.id;

/**
 * What to do with a due object's listed record: hand it to its object when it shows something
 * the object has not seen (neither handed by the reconciler nor admitted by the object itself,
 * e.g. from a webhook) and is not older than what the object knows; else the read found nothing
 * new.
 *
 * @example
 * if (offer(row, listed) === "hand") await stub.admitListed(listed);
 */
export function offer(row: Tracked, listed: ListedRecord): { hand: boolean; fingerprint: string } {
  const fingerprint = recordFingerprint(listed.record);
  const known = { status: row.status, received: row.received };
  const older = isOlder(row.kind, listedFacts(listed), known);
  return { hand: !older && fingerprint !== row.fingerprint, fingerprint };
}
