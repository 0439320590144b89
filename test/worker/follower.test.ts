/**
 * The Follower capability (`worker/core/events/follower.ts`) on a real object's SQLite: it
 * registers with the reconciler only what changed since the last registration (and a
 * registration for what is no longer followed), retries a registration that failed, and
 * reports its next wake only when no reconciler reads for the object. `registerSoon` never
 * makes its caller wait for the reconciler, runs registrations one at a time, in order, and
 * keeps at most one waiting (arms while one waits share it; it sends the newest state). A
 * change of an open object's facts only (a webhook's new status, a later read) goes to the index
 * feed instead (`noteFacts`, `worker/core/events/facts-feed.ts`); whatever the reconciler must
 * know at once (opened, ended, watched, a read brought sooner) still goes by RPC.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admitRead, forgetFollowed, hurryReads } from "../../worker/core/converge/followed.ts";
import { factsKey } from "../../worker/core/events/facts-feed.ts";
import { Follower } from "../../worker/core/events/follower.ts";
import type { Registration } from "../../worker/core/reconciler/reconciler-rpc.ts";
import { openCheckout, uniqueSub } from "./helpers.ts";

/**
 * Forgets what the object's own Follower told the reconciler when the checkout opened (kept in
 * each followed row), so the test's Follower starts as one that never registered.
 */
function neverTold(sql: SqlStorage): void {
  sql.exec("UPDATE upstream_objects SET told = NULL");
}

/** A reconciler whose registrations wait until the test releases them, one by one. */
function heldReconciler() {
  const calls: { rows: string[]; release: () => void; fail: (e: Error) => void }[] = [];
  return {
    calls,
    reconciler: () => ({
      register: (rows: Registration[]) =>
        new Promise<void>((release, fail) => {
          calls.push({ rows: rows.map((r) => `${r.id}:${r.status}`), release, fail });
        }),
    }),
  };
}

/**
 * Runs `body` inside a new order object with a Follower whose reconciler is held (`heldReconciler`).
 */
async function withHeldFollower<T>(
  name: string,
  body: (input: {
    sql: SqlStorage;
    follower: Follower;
    held: ReturnType<typeof heldReconciler>;
  }) => Promise<T>,
): Promise<T> {
  const { body: opened } = await openCheckout({ sub: uniqueSub(name) });
  const stub = env.ORDERS.get(env.ORDERS.idFromName(opened.data.id));
  return runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
    const sql = state.storage.sql;
    neverTold(sql);
    const held = heldReconciler();
    const follower = new Follower({
      sql,
      namespace: "ORDERS",
      owner: name,
      watched: () => false,
      reconciled: () => true,
      reconciler: held.reconciler,
    });
    return body({ sql, follower, held });
  });
}

/**
 * Runs `body` inside a newly opened order object on the SQLite of that object, as an object
 * that never told the reconciler anything (`neverTold`).
 */
async function inOpenedOrder<T>(name: string, body: (sql: SqlStorage) => Promise<T>): Promise<T> {
  const { body: opened } = await openCheckout({ sub: uniqueSub(name) });
  const stub = env.ORDERS.get(env.ORDERS.idFromName(opened.data.id));
  return runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
    neverTold(state.storage.sql);
    return body(state.storage.sql);
  });
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe("the Follower capability", () => {
  it("registers what changed only, what ended, retries a failed registration, and wakes only without a reconciler", async () => {
    const result = await inOpenedOrder("follower", async (sql) => {
      const sent: Registration[][] = [];
      let fail = false;
      let reconciled = true;
      const follower = new Follower({
        sql,
        namespace: "ORDERS",
        owner: "owner-1",
        watched: () => false,
        reconciled: () => reconciled,
        reconciler: () => ({
          register: async (rows) => {
            if (fail) throw new Error("unreachable");
            sent.push(rows);
          },
        }),
      });
      const plan = { now: Date.now(), follow: true, keepUntil: null, watched: false };
      const summary = () =>
        sent.map((rows) => rows.map((r) => `${r.id}:${r.nextReadAt === null ? "end" : r.status}`));
      await follower.register(); // the opened invoice
      const first = summary().flat().length;
      await follower.register(); // nothing changed
      admitRead(sql, "invoice", "inv_extra", { status: "processing", received: "0" }, plan);
      fail = true;
      const failed = await follower.register().then(
        () => "sent",
        (e: Error) => e.message,
      );
      fail = false;
      await follower.register(); // retried
      forgetFollowed(sql, { kind: "invoice", id: "inv_extra" });
      await follower.register(); // no longer followed
      const withReconciler = follower.nextWake();
      reconciled = false;
      return {
        first,
        failed,
        calls: summary().slice(1),
        withReconciler,
        without: follower.nextWake(),
      };
    });
    expect(result.first).toBe(1);
    expect(result.failed).toBe("unreachable");
    expect(result.calls).toEqual([["inv_extra:processing"], ["inv_extra:end"]]);
    expect(result.withReconciler).toBeNull();
    expect(typeof result.without).toBe("number");
  });

  it("registerSoon answers before the reconciler does, runs one registration at a time in the order asked, and reports a failure without marking anything registered", async () => {
    const result = await withHeldFollower("follower-soon", async ({ sql, follower, held }) => {
      const plan = { now: Date.now(), follow: true, keepUntil: null, watched: false };
      const failures: string[] = [];
      const failed = (e: unknown) => failures.push((e as Error).message);
      // The caller goes on at once, although the reconciler has not answered.
      const first = follower.registerSoon(failed);
      await tick();
      const callsWhileHeld = held.calls.length;
      admitRead(sql, "invoice", "inv_second", { status: "processing", received: "0" }, plan);
      const second = follower.registerSoon(failed);
      await tick();
      // The second waits for the first: one registration at a time.
      const callsBeforeRelease = held.calls.length;
      held.calls[0]!.fail(new Error("unreachable"));
      await first;
      await tick();
      // The failed one marked nothing: the next registration sends its row again.
      const secondRows = held.calls[1]?.rows ?? [];
      held.calls[1]!.release();
      await second;
      return { callsWhileHeld, callsBeforeRelease, failures, secondRows };
    });
    expect(result.callsWhileHeld).toBe(1);
    expect(result.callsBeforeRelease).toBe(1);
    expect(result.failures).toEqual(["unreachable"]);
    expect(result.secondRows).toHaveLength(2);
    expect(result.secondRows).toContain("inv_second:processing");
  });

  it("many quick arms while a registration runs reach the reconciler as at most two registrations, the second with the newest state", async () => {
    const result = await withHeldFollower("follower-coalesce", async ({ sql, follower, held }) => {
      const plan = { now: Date.now(), follow: true, keepUntil: null, watched: false };
      const failed = () => {};
      const runs = [follower.registerSoon(failed)]; // starts at once, held
      await tick();
      // Ten arms while it runs, each after a change: the newest status is "partially_paid".
      const statuses = ["processing", "processing", "partially_paid"];
      for (let i = 0; i < 10; i++) {
        const status = statuses[Math.min(i, 2)]!;
        admitRead(sql, "invoice", "inv_quick", { status, received: String(i) }, plan);
        runs.push(follower.registerSoon(failed));
      }
      await tick();
      const callsWhileHeld = held.calls.length;
      held.calls[0]!.release();
      await tick();
      held.calls[1]?.release();
      await Promise.all(runs);
      await tick();
      return {
        callsWhileHeld,
        calls: held.calls.map((c) => c.rows),
        shared: runs.slice(2).every((r) => r === runs[1]),
      };
    });
    expect(result.callsWhileHeld).toBe(1);
    expect(result.calls).toHaveLength(2);
    expect(result.calls[1]).toContain("inv_quick:partially_paid");
    expect(result.shared).toBe(true);
  });

  it("a change of facts only goes to the index feed, not to the reconciler; an end, a watched change and a read brought sooner still go by RPC", async () => {
    const result = await inOpenedOrder("follower-facts", async (sql) => {
      const sent: string[][] = [];
      let watched = false;
      const follower = new Follower({
        sql,
        namespace: "ORDERS",
        owner: "owner-facts",
        watched: () => watched,
        reconciled: () => true,
        reconciler: () => ({
          register: async (rows) => {
            sent.push(rows.map((r) => `${r.id}:${r.nextReadAt === null ? "end" : r.status}`));
          },
        }),
      });
      const feedRow = (id: string) =>
        sql
          .exec<{ body: string; version: number }>(
            "SELECT body, version FROM index_feed WHERE key = ?",
            factsKey({ kind: "invoice", id }),
          )
          .toArray()[0] ?? null;
      const plan = (now: number) => ({ now, follow: true, keepUntil: null, watched: false });
      const t = Date.now();
      admitRead(sql, "invoice", "inv_f", { status: "processing", received: "0" }, plan(t));
      await follower.register(); // opened: by RPC
      const opened = sent.length;
      // A webhook moves it: new facts, next read later. No RPC; the feed carries them.
      admitRead(sql, "invoice", "inv_f", { status: "suspended", received: "0" }, plan(t + 5));
      await follower.register();
      const afterFacts = { calls: sent.length, row: feedRow("inv_f") };
      // Again with nothing new: neither RPC nor a new feed version.
      await follower.register();
      const unchanged = { calls: sent.length, version: feedRow("inv_f")?.version };
      // A read brought sooner (a 503'd refetch's catch-up): the reconciler must hear at once.
      hurryReads(sql, t + 1_000, { kind: "invoice", id: "inv_f" });
      await follower.register();
      const sooner = sent.length;
      // Watched: at once as well.
      watched = true;
      await follower.register();
      const watchedCalls = sent.length;
      // Ended (no longer followed): at once.
      forgetFollowed(sql, { kind: "invoice", id: "inv_f" });
      await follower.register();
      return { opened, afterFacts, unchanged, sooner, watchedCalls, sent };
    });
    expect(result.opened).toBe(1);
    expect(result.afterFacts.calls).toBe(1);
    expect(JSON.parse(result.afterFacts.row!.body)).toMatchObject({
      kind: "invoice",
      id: "inv_f",
      status: "suspended",
    });
    expect(result.unchanged).toEqual({ calls: 1, version: result.afterFacts.row!.version });
    expect(result.sooner).toBe(2);
    expect(result.watchedCalls).toBe(3);
    expect(result.sent.at(-1)).toEqual(["inv_f:end"]);
  });

  it("an object that restarts does not register again what the reconciler was told: it is kept in each followed row", async () => {
    const calls = await inOpenedOrder("follower-restart", async (sql) => {
      const sent: string[][] = [];
      // Each Follower stands for one life of the object (workerd evicts it between webhooks).
      const life = () =>
        new Follower({
          sql,
          namespace: "ORDERS",
          owner: "owner-restart",
          watched: () => false,
          reconciled: () => true,
          reconciler: () => ({
            register: async (rows) => void sent.push(rows.map((r) => r.status)),
          }),
        });
      await life().register(); // opened: told once
      await life().register(); // restarted, nothing changed: nothing sent
      const rows = sql
        .exec<{ id: string; keep_until: number | null }>(
          "SELECT id, keep_until FROM upstream_objects",
        )
        .toArray();
      for (const { id, keep_until: keepUntil } of rows) {
        const plan = { now: Date.now() + 5, follow: true, keepUntil, watched: false };
        admitRead(sql, "invoice", id, { status: "processing", received: "0" }, plan);
      }
      await life().register(); // restarted, facts only: through the feed
      return sent.length;
    });
    expect(calls).toBe(1);
  });
});
