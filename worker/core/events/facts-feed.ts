/**
 * @module
 * The facts feed: how an object tells the account's reconciler the new facts and read time of
 * an upstream object it already registered, without a registration RPC of its own. The object
 * writes one index-feed row per followed object (`facts|<kind>|<id>`, kind `facts`), delivered
 * to the account's index with the rest of its feed (`index-feed.ts`); the reconciler takes the
 * rows the index holds at the start of each sweep (`AccountRpc.takeFacts`) and updates the
 * objects it tracks (`core/reconciler/tracked.ts` `applyFacts`).
 *
 * Why: a webhook that moves an open invoice (processing → suspended, a payment) used to cost
 * one registration RPC of its own besides the feed delivery it makes anyway; the reconciler
 * needs those facts only by its next sweep, and only to skip handing back a record the object
 * already has. Losing a row (an answer lost between index and reconciler) is therefore harmless:
 * the reconciler then hands that record once (admitted as stale) or reads a little early.
 */
import type { FactsUpdate, Registration } from "../reconciler/reconciler-rpc.ts";
import { feedPut } from "./index-feed.ts";

/** The feed key of one followed object's facts. */
export function factsKey(reg: Pick<Registration, "kind" | "id">): string {
  return `facts|${reg.kind}|${reg.id}`;
}

/**
 * Writes a followed object's facts and read time to the index feed (a new version only when
 * they changed).
 *
 * @example
 * putFacts(sql, registration, Date.now());
 */
export function putFacts(sql: SqlStorage, reg: Registration, now: number): void {
  const update: FactsUpdate = {
    kind: reg.kind,
    id: reg.id,
    status: reg.status,
    received: reg.received,
    seen: reg.seen ?? null,
    nextReadAt: reg.nextReadAt,
    gapMs: reg.gapMs,
  };
  feedPut(sql, factsKey(reg), "facts", JSON.stringify(update), now);
}
