/**
 * @module
 * The Follower capability of an object (order, top-up, payout): it owns the object's
 * `upstream_objects` table (`followed.ts`: the known facts and the read schedule of every
 * upstream object it follows) and its registration with the account's reconciler, and reports
 * when the object next needs to wake for a read. It never touches the alarm: the object's one
 * `arm()` (`object-host.ts`) takes the earliest wake of all its parts.
 *
 * Invariants:
 * - with a reconciler, every change to a followed object's schedule, facts or watched state is
 *   registered with it (only what changed since the last registration, and those no longer
 *   followed); a failed registration marks nothing registered, so the next one retries it;
 * - what the reconciler must know at once goes to it in a registration RPC: an object newly
 *   followed (opened), one no longer followed (ended, forgotten), a change of watched state or of
 *   its `keepUntil`, a read brought sooner than it was told. A change of an already registered
 *   object's facts, fingerprint, or a later read time only (`noteFacts`: a webhook's new status,
 *   a payment) is a hint, not a duty: it is written to the
 *   object's index feed (`facts-feed.ts`), travels with the feed delivery the change makes anyway
 *   and reaches the reconciler when its next sweep collects it from the account's index. Until
 *   then the reconciler at worst hands the object a record it already has (admitted as stale) or
 *   reads it a little early: never less than before;
 * - what the reconciler was told is kept in each followed row (`told`), so an object evicted
 *   between two webhooks (a watched one is: its streams live in the hubs) does not register
 *   again, at every start, what the reconciler already knows;
 * - registrations run one at a time, in the order they were asked for (`registerSoon` chains
 *   them): an older schedule never reaches the reconciler after a newer one. At most one runs
 *   and one waits: an arm while one already waits shares it, since a registration reads the
 *   object's state only when it starts and so sends the newest state anyway. The object's
 *   answers do not wait for them (a shopper's create does not wait for the reconciler's own
 *   write): the call leaves with the object's next output, so the reconciler still hears of
 *   an object before anyone hears of its answer;
 * - with a reconciler the object never wakes for reads (the reconciler reads in batches and
 *   calls back); without one, it wakes at the earliest due read.
 */

import { followedRows, nextFollowedRead, saveTold, toldRows } from "../converge/followed.ts";
import type { UpstreamKind } from "../converge/status-rank.ts";
import type { FollowerNamespace, Registration } from "../reconciler/reconciler-rpc.ts";
import { putFacts } from "./facts-feed.ts";

/** What the reconciler was told of a followed object, as kept in its row (`told`). */
type Told = Pick<
  Registration,
  "nextReadAt" | "gapMs" | "keepUntil" | "watched" | "status" | "received" | "seen"
>;

/** What the Follower needs of its object: a narrow face, no Durable Object. */
export interface FollowerHost {
  readonly sql: SqlStorage;
  /** The object's namespace binding and id (hex): the reconciler calls it back through them. */
  readonly namespace: FollowerNamespace;
  readonly owner: string;
  /** True while someone watches the object live (reads come faster). */
  watched(): boolean;
  /** True when the account's reconciler reads for this object (else it reads itself). */
  reconciled(): boolean;
  /** The account's reconciler (asked only when `reconciled()` and there is something to say). */
  reconciler(): { register(rows: Registration[]): Promise<void> };
}

/**
 * An object's following of upstream objects: registration with the reconciler, next wake.
 *
 * @example
 * const follower = new Follower({ sql, namespace: "ORDERS", owner, watched, reconciled, reconciler });
 * await follower.register(); // after a write that changed a schedule
 * follower.nextWake(); // null with a reconciler, else the earliest due read
 */
export class Follower {
  readonly #host: FollowerHost;
  /**
   * What the reconciler was last told of each followed object (`kind|id`), by RPC or feed;
   * read from the followed table once (`told`), so a restarted object knows it too.
   */
  #registered: Map<string, Registration> | null = null;
  /** The last registration asked for (`registerSoon`): the next one starts after it. */
  #tail: Promise<void> = Promise.resolve();
  /** The registration asked for that has not started yet, shared by every arm until it does. */
  #waiting: Promise<void> | null = null;

  constructor(host: FollowerHost) {
    this.#host = host;
  }

  /** When the object must wake for a read: never with a reconciler, else the earliest due. */
  nextWake(): number | null {
    return this.#host.reconciled() ? null : nextFollowedRead(this.#host.sql);
  }

  /**
   * Registers (`register`) after every registration asked for before, without the caller
   * waiting for it; a failure goes to `failed` (nothing is then marked registered: the next
   * registration retries it). When a registration is already waiting to start, this shares it
   * (it will read the newest state when it starts) and its failure goes to the `failed` of the
   * arm that asked for it first. Answers when the registration has ended, failed or not.
   *
   * @example
   * ctx.waitUntil(follower.registerSoon((error) => log.warn("reconciler.register_failed", …)));
   */
  registerSoon(failed: (error: unknown) => void): Promise<void> {
    if (this.#waiting) return this.#waiting;
    const run = this.#tail
      .then(() => {
        this.#waiting = null; // started: a later arm asks for one more, after this one
        return this.register();
      })
      .catch(failed);
    this.#waiting = run;
    this.#tail = run;
    return run;
  }

  /**
   * Writes to the index feed the facts and read time of every registered object whose change
   * since it was last told is facts only (`factsOnly`); those count as registered from now on. Synchronous, so the caller's feed delivery carries them.
   *
   * @example
   * follower.noteFacts(); // after a webhook moved an open invoice processing → suspended
   */
  noteFacts(): void {
    if (!this.#host.reconciled()) return;
    const { namespace, owner } = this.#host;
    const watched = this.#host.watched();
    const told = this.#told();
    for (const row of followedRows(this.#host.sql)) {
      const known = told.get(`${row.kind}|${row.id}`);
      const reg: Registration = { ...row, namespace, owner, watched };
      if (known && factsOnly(known, reg)) this.#noteFact(reg);
    }
  }

  /** One facts-only change written to the index feed, and counted as told. */
  #noteFact(reg: Registration): void {
    putFacts(this.#host.sql, reg, Date.now());
    this.#markTold(reg);
  }

  /** What the reconciler was told, read from the followed table on first use. */
  #told(): Map<string, Registration> {
    if (this.#registered) return this.#registered;
    const { namespace, owner } = this.#host;
    const told = new Map<string, Registration>();
    for (const [key, json] of toldRows(this.#host.sql)) {
      const [kind, id] = key.split("|") as [UpstreamKind, string];
      try {
        told.set(key, { ...(JSON.parse(json) as Told), kind, id, namespace, owner });
      } catch {
        // Unreadable: as never told, so the next registration sends it again.
      }
    }
    this.#registered = told;
    return told;
  }

  /** Remembers what the reconciler was told of `reg`, in memory and in its followed row. */
  #markTold(reg: Registration): void {
    this.#told().set(`${reg.kind}|${reg.id}`, reg);
    const { nextReadAt, gapMs, keepUntil, watched, status, received, seen } = reg;
    const told: Told = { nextReadAt, gapMs, keepUntil, watched, status, received, seen };
    saveTold(this.#host.sql, reg, JSON.stringify(told));
  }

  /**
   * Registers with the reconciler every followed object it must hear of at once (newly
   * followed, watched state or window changed) and those no longer followed; a change of facts
   * only goes to the index feed (`noteFacts`). Throws when the reconciler could not be reached
   * (nothing is then marked registered).
   */
  async register(): Promise<void> {
    if (!this.#host.reconciled()) return;
    const { namespace, owner } = this.#host;
    const watched = this.#host.watched();
    const changed: Registration[] = [];
    const seen = new Set<string>();
    const told = this.#told();
    // One scan does `noteFacts` and the registration's diff: a facts-only change goes to the
    // feed (and counts as told), any other change to the RPC.
    for (const row of followedRows(this.#host.sql)) {
      const key = `${row.kind}|${row.id}`;
      seen.add(key);
      const reg: Registration = { ...row, namespace, owner, watched };
      const known = told.get(key);
      if (known && factsOnly(known, reg)) this.#noteFact(reg);
      else if (!known || registrationKey(known) !== registrationKey(reg)) changed.push(reg);
    }
    for (const key of told.keys()) {
      if (seen.has(key)) continue;
      const [kind, id] = key.split("|") as [UpstreamKind, string];
      changed.push({
        kind,
        id,
        namespace,
        owner,
        nextReadAt: null,
        gapMs: 0,
        keepUntil: null,
        watched,
        status: "",
        received: "0",
        seen: null,
      });
    }
    if (changed.length === 0) return;
    await this.#host.reconciler().register(changed);
    for (const reg of changed) {
      const key = `${reg.kind}|${reg.id}`;
      if (reg.nextReadAt === null && !seen.has(key)) told.delete(key);
      else this.#markTold(reg);
    }
  }
}

/**
 * True when `next` differs from what the reconciler was told (`told`) only in what may follow
 * through the feed: its facts, its fingerprint, or a later read time. Not when the object
 * started or stopped being followed or watched, its window moved, or it must be read sooner
 * than the reconciler plans (a read brought forward: it must not wait for the next sweep).
 *
 * @example
 * factsOnly(told, { ...told, status: "suspended", nextReadAt: told.nextReadAt! + 4_000 }); // true
 */
export function factsOnly(told: Registration, next: Registration): boolean {
  if (told.nextReadAt === null || next.nextReadAt === null) return false;
  if (told.keepUntil !== next.keepUntil || told.watched !== next.watched) return false;
  if (next.nextReadAt < told.nextReadAt) return false;
  return registrationKey(told) !== registrationKey(next);
}

/**
 * What the reconciler was told of one followed object, as one short line: every field that a
 * registration carries and that can change (namespace and owner are the object's own, fixed).
 *
 * @example
 * registrationKey(reg); // "1767225600000|15000|null|0|processing|5|3f1a…"
 */
function registrationKey(reg: Registration): string {
  const watched = reg.watched ? 1 : 0;
  return `${reg.nextReadAt}|${reg.gapMs}|${reg.keepUntil}|${watched}|${reg.status}|${reg.received}|${reg.seen ?? ""}`;
}
