/**
 * What one verified webhook costs the runtime, and what each guarantee still holds after the
 * cuts (README "Webhook CPU: the events one webhook causes"):
 *
 * - a change that queues merchant notifications delivers them, and the index feed, in the same
 *   invocation (`ObjectHost.scheduleAlarm`): no alarm of its own. The alarm is set ahead first
 *   (the net: an object that dies mid-run still delivers) and is gone once everything went out;
 *   a failed delivery leaves it at the retry's time, as before;
 * - the facts an open object learned travel through its index feed to the account's index,
 *   which keeps the newest version until the reconciler takes it (once per sweep); an update
 *   never brings back an object the reconciler stopped tracking.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { factsKey } from "../../worker/core/events/facts-feed.ts";
import { feedOwed } from "../../worker/core/events/index-feed.ts";
import { INLINE_GRACE_MS } from "../../worker/core/events/object-host.ts";
import { backoffMs } from "../../worker/core/events/outbox.ts";
import type { FactsUpdate } from "../../worker/core/reconciler/reconciler-rpc.ts";
import { applyFacts, register, TRACKED_SCHEMA } from "../../worker/core/reconciler/tracked.ts";
import type { OrderObject } from "../support/worker-entry.ts";
import { inboxAnswers, uniqueSub } from "./helpers.ts";
import { suspendedWebhook } from "./orders.ts";

afterEach(() => inboxAnswers(200, 0));

/**
 * Applies the webhook in its object (the merchant answering 500 when `merchantFails`); the
 * alarm right after the answer and once all settled.
 */
async function applyAndSettle(label: string, merchantFails = false) {
  const { stub, delivery } = await suspendedWebhook(label);
  return runInDurableObject(stub, async (o: OrderObject, state) => {
    // At rest first: what the open and the lock owed is delivered, no alarm left.
    await o.host.alarm();
    expect(await state.storage.getAlarm()).toBeNull();
    if (merchantFails) await inboxAnswers(500, 100);
    const before = Date.now();
    const outcome = await o.applyInvoiceWebhook(delivery);
    const net = await state.storage.getAlarm();
    await o.registrationsSettled();
    const sql = state.storage.sql;
    const undelivered = sql
      .exec<{ attempts: number }>("SELECT attempts FROM outbox WHERE delivered_at IS NULL")
      .toArray()
      .map((r) => r.attempts);
    return {
      ok: outcome.ok,
      before,
      net,
      after: await state.storage.getAlarm(),
      settledAt: Date.now(),
      undelivered,
      feedOwed: feedOwed(sql),
      facts: sql
        .exec<{ body: string }>(
          "SELECT body FROM index_feed WHERE key = ? AND sent_version = version",
          factsKey({ kind: "invoice", id: delivery.id }),
        )
        .toArray()
        .map((r) => JSON.parse(r.body) as FactsUpdate),
    };
  });
}

describe("the events one webhook causes", () => {
  it("a webhook that notifies delivers its notifications and the index feed in the same invocation: the alarm is only the net, and none is left set", async () => {
    const r = await applyAndSettle("inline");
    expect(r.ok).toBe(true);
    // When the answer left, the alarm stood ahead as the net (it was "now" when an alarm run
    // delivered every notification).
    expect(r.net).not.toBeNull();
    expect(r.net!).toBeGreaterThanOrEqual(r.before + INLINE_GRACE_MS - 1_000);
    // The inline run delivered everything and cleared the net: no alarm wakes the object.
    expect(r.undelivered).toEqual([]);
    expect(r.feedOwed).toBe(0);
    expect(r.after).toBeNull();
    // The facts the webhook moved went to the account's index with that same feed delivery.
    expect(r.facts.map((f) => f.status)).toEqual(["suspended"]);
  });

  it("a failed inline delivery leaves the alarm at the retry's time: the merchant is still notified at least once, with retries", async () => {
    const r = await applyAndSettle("inline-fail", true);
    expect(r.ok).toBe(true);
    expect(r.undelivered.length).toBeGreaterThan(0);
    expect(r.undelivered.every((attempts) => attempts === 1)).toBe(true);
    expect(r.after).not.toBeNull();
    expect(r.after!).toBeGreaterThanOrEqual(r.before + backoffMs(1) - 50);
    expect(r.after!).toBeLessThanOrEqual(r.settledAt + backoffMs(1) + 50);
  });

  it("the account's index keeps the newest facts of each followed object until the reconciler takes them, once", async () => {
    const index = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(uniqueSub("facts-index")));
    const key = factsKey({ kind: "invoice", id: "inv_take" });
    const body = (status: string) => JSON.stringify({ kind: "invoice", id: "inv_take", status });
    await index.applyFeed("order:a", [{ key, kind: "facts", version: 2, body: body("suspended") }]);
    // An older version delivered late changes nothing.
    await index.applyFeed("order:a", [
      { key, kind: "facts", version: 1, body: body("processing") },
    ]);
    const taken = (await index.takeFacts(100)).map((b) => (JSON.parse(b) as FactsUpdate).status);
    expect(taken).toEqual(["suspended"]);
    expect(await index.takeFacts(100)).toEqual([]);
    // Facts are no order and no notification: the order list is untouched.
    expect((await index.listOrders({}, 10, null)).data).toEqual([]);
  });

  it("a take of facts answers at most its limit and leaves the rest, each row once, for the next", async () => {
    const index = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(uniqueSub("facts-limit")));
    const ids = ["inv_l1", "inv_l2", "inv_l3"];
    await index.applyFeed(
      "order:a",
      ids.map((id) => ({
        key: factsKey({ kind: "invoice", id }),
        kind: "facts" as const,
        version: 1,
        body: JSON.stringify({ kind: "invoice", id, status: "suspended" }),
      })),
    );
    const idsOf = (bodies: string[]) => bodies.map((b) => (JSON.parse(b) as FactsUpdate).id);
    const first = idsOf(await index.takeFacts(2));
    expect(first).toHaveLength(2);
    const rest = idsOf(await index.takeFacts(2));
    expect([...first, ...rest].sort()).toEqual(ids);
    expect(await index.takeFacts(2)).toEqual([]);
  });

  it("facts taken by the reconciler update a tracked object, and never bring back one that ended", async () => {
    const stub = env.RECONCILERS.get(env.RECONCILERS.idFromName(uniqueSub("facts-tracked")));
    const rows = await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      sql.exec(TRACKED_SCHEMA);
      const base = {
        kind: "invoice" as const,
        namespace: "ORDERS" as const,
        owner: "owner",
        nextReadAt: 1_000,
        gapMs: 15_000,
        keepUntil: null,
        watched: true,
        status: "processing",
        received: "0",
        seen: "f1",
      };
      register(sql, [
        { ...base, id: "inv_open" },
        { ...base, id: "inv_ended" },
      ]);
      register(sql, [{ ...base, id: "inv_ended", nextReadAt: null }]);
      const update = { kind: "invoice" as const, status: "suspended", received: "0" };
      applyFacts(sql, [
        { ...update, id: "inv_open", seen: "f2", nextReadAt: 9_000, gapMs: 15_000 },
        { ...update, id: "inv_ended", seen: "f2", nextReadAt: 9_000, gapMs: 15_000 },
      ]);
      return sql.exec("SELECT id, status, fingerprint, next_read_at FROM tracked").toArray();
    });
    expect(rows).toEqual([
      { id: "inv_open", status: "suspended", fingerprint: "f2", next_read_at: 9_000 },
    ]);
  });
});
