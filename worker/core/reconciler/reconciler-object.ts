/**
 * @module
 * `ReconcilerObject`: one per service account (named by `accountKey`, like the budget and the account index). It knows
 * every upstream object some Durable Object follows (objects register each one's schedule
 * whenever it changes: opened, read, watched, no longer watched, ended) and reads the due ones
 * in batches: the list pages of each kind's open statuses, newest first, page by page within
 * the deployment's budget (priority `reconcile`), stopping as soon as every due object of the
 * kind was found. A listed record goes to its object only when it shows something new
 * (`open-lists.ts` `offer`); the object admits it through its monotonic facts as any read and
 * registers its new schedule. A due object found in no open list left them: its own object
 * reads it with one `GET` (`FollowerRpc.reconcileRead`). The schedule rules stay the objects'
 * (`core/converge/schedule.ts`): ≤ 10 s while watched, backing off to 5 min unwatched, until
 * expiry + 24 h; a read that found nothing new backs off here the same way.
 *
 * Invariants:
 * - a sweep's calls all pass the budget. When the budget has no call left in this window (the
 *   deployment's other calls took it), the sweep waits for the window the budget names and
 *   reads the same page, for at most `MAX_SWEEP_WAIT_MS` in all: a walk longer than one
 *   window's share must reach its last pages, and starting over at page 1 next sweep would
 *   never get there (the lists are newest first, so the oldest open objects would starve).
 *   The service's own 429, or a wait past that limit, ends the sweep and defers what was left
 *   to the retry time (nothing is lost: rows stay, the alarm is re-armed);
 * - at most `MAX_SINGLE_READS` single reads and `MAX_PAGES` pages per kind per sweep;
 * - due objects are taken `BATCH_AHEAD_MS` early, so objects that fall due close together are
 *   read by one sweep, and sweeps come at most every `MIN_SWEEP_GAP_MS`;
 * - durable (SQLite): a restarted reconciler carries on from its table;
 * - each sweep first takes the facts objects sent through their index feeds since the last one
 *   (`AccountRpc.takeFacts`, `core/events/facts-feed.ts`), and again after each page that lists
 *   an object it wants, before offering it (webhooks go on during a walk): a webhook that only
 *   moves an open object's facts costs it no registration RPC, one sweep a call per page. A take that fails changes
 *   nothing but what is handed: the sweep goes on with the facts it has.
 *
 * Sharding, should one reconciler be too hot (≈ 10,000 sweeps' rows a minute is far from
 * that): name it by account + kind (three objects), then by account + kind + a hash bucket of
 * the upstream id; each shard walks the same open lists but hands only its own ids, so the
 * list pages are read once per shard: keep shards few, or let one shard read the pages and
 * fan the records out.
 */

import { DurableObject } from "cloudflare:workers";
import { UpstreamError } from "../../service/errors.ts";
import { GATE_REFUSAL } from "../../service/transport.ts";
import { accountKey } from "../account/account-key.ts";
import { parseConfig } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { configLogger } from "../config/logger.ts";
import { upstreamFor } from "../config/upstream.ts";
import { FIRST_READ_MS } from "../converge/schedule.ts";
import type { UpstreamKind } from "../converge/status-rank.ts";
import { accountStub } from "../objects/stubs.ts";
import { createTablesAtStart } from "../storage/tables-at-start.ts";
import { listedId, OPEN_STATUSES, offer, openPage } from "./open-lists.ts";
import type {
  FactsUpdate,
  FollowerRpc,
  ListedRecord,
  ReconcilerRpc,
  Registration,
  SweepReport,
} from "./reconciler-rpc.ts";
import {
  applyFacts,
  deferTracked,
  dueTracked,
  handed,
  nextTrackedRead,
  readUnchanged,
  register,
  TRACKED_SCHEMA,
  type Tracked,
  trackedRow,
} from "./tracked.ts";

/**
 * Due objects are swept this much early, so neighbours share one sweep. Equal to the gap
 * below, so every object is read at or before its due time (a watched one within its 10 s).
 */
export const BATCH_AHEAD_MS = 6_000;
/**
 * Sweeps come at most this often. Why 6 s: due objects lie on every list page, so a sweep
 * reads about every page; pages per second ≈ open pages / this gap (1,000 watched checkouts:
 * 10 pages every 6 s ≈ 1.7 reads a second, under the 2; it was 3.2 at 2 s).
 */
export const MIN_SWEEP_GAP_MS = 6_000;
/** Pages walked per kind and status at most in one sweep (10,000 records). */
export const MAX_PAGES = 100;
/** Single reads (objects that left the open lists) per sweep at most. */
export const MAX_SINGLE_READS = 20;
/** Due objects taken per sweep at most. */
const MAX_DUE = 20_000;
/** A list or a single read the budget refused: try again this much later at the earliest. */
const RETRY_MS = 1_000;
/** What one sweep may wait, in all, for the budget's next windows before deferring the rest. */
export const MAX_SWEEP_WAIT_MS = 10_000;
/** One wait for the budget at most (its windows are a second long). */
const MAX_ONE_WAIT_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Limits of a list page: one attempt of at most 5 s, last in the budget. */
const RECONCILE_LIST = { timeoutMs: 5_000, maxAttempts: 1, priority: "reconcile" } as const;

/** Facts rows one sweep takes from the account's index at most. */
const MAX_FACTS_TAKEN = 5_000;

export class ReconcilerObject extends DurableObject<CoreEnv> implements ReconcilerRpc {
  #lastSweep = 0;

  constructor(ctx: DurableObjectState, env: CoreEnv) {
    super(ctx, env);
    createTablesAtStart(ctx, TRACKED_SCHEMA);
  }

  /** Records registrations and brings the alarm to the earliest due read. */
  async register(rows: Registration[]): Promise<void> {
    register(this.ctx.storage.sql, rows);
    await this.#arm();
  }

  /**
   * Sweeps what is due, then re-arms. Resolves to the sweep's `SweepReport`: the runtime ignores
   * an alarm's value, and the tests' `sweepNow` reads it (`test/support/worker-entry.ts`), so no
   * method of the deployed class exists for the tests alone.
   */
  override async alarm(): Promise<void> {
    const report = await this.#sweep();
    await this.#arm();
    return report as unknown as undefined;
  }

  /** The alarm at the earliest due read, no sooner than the gap after the last sweep. */
  async #arm(): Promise<void> {
    const next = nextTrackedRead(this.ctx.storage.sql);
    if (next === null) return;
    const at = Math.max(next - BATCH_AHEAD_MS, this.#lastSweep + MIN_SWEEP_GAP_MS);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  async #sweep(): Promise<SweepReport> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    this.#lastSweep = now;
    const report: SweepReport = {
      due: 0,
      pages: 0,
      handed: 0,
      unchanged: 0,
      singleReads: 0,
      deferred: false,
      budgetWaits: 0,
    };
    const waitUntil = now + MAX_SWEEP_WAIT_MS;
    const parsed = parseConfig(this.env);
    if (!parsed.ok) return report;
    const log = configLogger(parsed.config);
    await this.#takeFacts();
    const client = upstreamFor(parsed.config, RECONCILE_LIST);
    const due = dueTracked(sql, now + BATCH_AHEAD_MS, MAX_DUE);
    report.due = due.length;
    const left: Tracked[] = [];
    for (const kind of ["invoice", "deposit", "withdrawal"] as const) {
      const wanted = new Map(due.filter((r) => r.kind === kind).map((r) => [r.id, r]));
      if (wanted.size === 0) continue;
      const stop = await this.#walk(kind, wanted, client, report, waitUntil);
      if (stop !== null) {
        for (const row of [...wanted.values(), ...left]) deferTracked(sql, row, stop);
        log.warn("reconciler.deferred", { kind, retryAfterMs: stop - Date.now() });
        return report;
      }
      left.push(...wanted.values());
    }
    // Objects that left the open lists: their own object reads each with one GET.
    for (const row of left.slice(0, MAX_SINGLE_READS)) {
      report.singleReads += 1;
      handed(sql, row, row.fingerprint ?? "", Date.now() + FIRST_READ_MS);
      await this.#follower(row)
        .reconcileRead({ kind: row.kind, id: row.id })
        .catch((error: unknown) =>
          log.warn("reconciler.single_read_failed", { kind: row.kind, error: String(error) }),
        );
    }
    for (const row of left.slice(MAX_SINGLE_READS)) deferTracked(sql, row, Date.now() + RETRY_MS);
    return report;
  }

  /** Applies the facts objects sent through their feeds since the last take (`applyFacts`). */
  async #takeFacts(): Promise<void> {
    const parsed = parseConfig(this.env);
    if (!parsed.ok) return;
    const log = configLogger(parsed.config);
    let bodies: string[];
    try {
      bodies = await accountStub(this.env, accountKey(parsed.config)).takeFacts(MAX_FACTS_TAKEN);
    } catch (error) {
      log.warn("reconciler.facts_take_failed", { error: String(error) });
      return;
    }
    const updates: FactsUpdate[] = [];
    for (const body of bodies) {
      try {
        updates.push(JSON.parse(body) as FactsUpdate);
      } catch {
        log.warn("reconciler.facts_unreadable", {});
      }
    }
    applyFacts(this.ctx.storage.sql, updates);
  }

  /**
   * Walks `kind`'s open list pages until every wanted object was found (found ones are removed
   * from `wanted`); answers the time to retry when the budget or the service refused a page.
   */
  async #walk(
    kind: UpstreamKind,
    wanted: Map<string, Tracked>,
    client: ReturnType<typeof upstreamFor>,
    report: SweepReport,
    waitUntil: number,
  ): Promise<number | null> {
    for (const status of OPEN_STATUSES[kind]) {
      for (let page = 1; page <= MAX_PAGES && wanted.size > 0; page += 1) {
        let items: ListedRecord[];
        let hasMore: boolean;
        try {
          ({ items, hasMore } = await openPage(client, kind, status, page));
          report.pages += 1;
        } catch (error) {
          if (error instanceof UpstreamError && error.status === 429) {
            const wait = Math.min(MAX_ONE_WAIT_MS, Math.max(1, error.retryAfterMs ?? RETRY_MS));
            if (error.code === GATE_REFUSAL && Date.now() + wait <= waitUntil) {
              report.budgetWaits += 1;
              await sleep(wait);
              page -= 1; // the same page again, in the budget's next window
              continue;
            }
            report.deferred = true;
            return Date.now() + Math.max(RETRY_MS, error.retryAfterMs ?? RETRY_MS);
          }
          // A page that cannot be read: its objects are read one by one instead.
          return null;
        }
        // Facts objects sent while the page was read (a webhook's): offered against them.
        if (items.some((listed) => wanted.has(listedId(listed)))) await this.#takeFacts();
        for (const listed of items) {
          const row = wanted.get(listedId(listed));
          if (!row) continue;
          wanted.delete(row.id);
          await this.#offer(row, listed, report);
        }
        if (!hasMore) break;
      }
    }
    return null;
  }

  /** Hands a listed record to its object when it shows something new; else backs off. */
  async #offer(due: Tracked, listed: ListedRecord, report: SweepReport): Promise<void> {
    const sql = this.ctx.storage.sql;
    // As registered now: the sweep's pages took awaits, and objects registered meanwhile.
    const row = trackedRow(sql, due.kind, due.id);
    if (!row) return; // no longer followed: nothing to hand
    const { hand, fingerprint } = offer(row, listed);
    if (!hand) {
      report.unchanged += 1;
      readUnchanged(sql, row, Date.now());
      return;
    }
    report.handed += 1;
    // Until the object registers its new schedule, a failed hand-over is retried a gap later.
    handed(sql, row, fingerprint, Date.now() + FIRST_READ_MS);
    try {
      await this.#follower(row).admitListed(listed);
    } catch (error) {
      handed(sql, row, "", Date.now() + FIRST_READ_MS);
      const parsed = parseConfig(this.env);
      if (parsed.ok)
        configLogger(parsed.config).warn("reconciler.hand_failed", {
          kind: row.kind,
          error: String(error),
        });
    }
  }

  /** The object that follows a tracked row. */
  #follower(row: Tracked): FollowerRpc {
    const ns = this.env[row.namespace];
    return ns.get(ns.idFromString(row.owner)) as unknown as FollowerRpc;
  }
}
