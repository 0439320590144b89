/**
 * @module
 * The worker as the workerd test projects run it (`main` of the worker, unit and sim projects
 * in `vitest.config.mts`): the shipped worker's default export and Durable Object classes,
 * each bound by the name `wrangler.toml` gives it, with the hooks only the tests and the
 * simulation use added here in subclasses, so none of them is in the deployed bundle (README
 * "Worker bundle size"):
 * - `OrderObject`, `DepositObject`, `PayoutObject`: `registrationsSettled()`, every alarm run
 *   and every registration with the reconciler the object's host started, ended;
 * - `ReconcilerObject`: `sweepNow()` ("their time came": every tracked object due, one sweep,
 *   its report) and `tracked()` (rows, due, next sweep);
 * - `StreamHubObject`: `settled()`, every "unwatched" message (and alarm setting) in flight
 *   ended, and `streams(key)`, the open streams of one object;
 * - `BudgetObject`: `forget()`, the budget starts over as an evicted one does, `asked()`,
 *   the lane and client of the leases asked lately (the last `ASKED_KEPT`), and
 *   `clientLeases(since)`, every lease of a shopper lane asked for a client, in the order the
 *   object answered them, with the object's own time and what it granted (the simulation's
 *   fair-share invariant, `test/sim/fair-shares.ts`).
 *
 * The shipped classes keep their fields private (`#…`): a hook reaches only what the object
 * already hands out (its `ctx`, its `host`, its RPC methods), never a private field.
 */

import {
  type Lease,
  type LeaseRequest,
  MAX_CLIENT_KEY,
  SHOPPER_LANES,
} from "../../worker/core/budget/budget-rpc.ts";
import { windowOf } from "../../worker/core/budget/window.ts";
import type { CoreEnv } from "../../worker/core/config/core-env.ts";
import type { ObjectHost } from "../../worker/core/events/object-host.ts";
import type { SweepReport } from "../../worker/core/reconciler/reconciler-rpc.ts";
import { makeAllDue, trackedCounts } from "../../worker/core/reconciler/tracked.ts";
import { WatchedEntry } from "../../worker/core/streams/watched-entry.ts";
import * as shipped from "../../worker/index.ts";

export { AccountObject, CatalogObject, default, PaymentModeObject } from "../../worker/index.ts";

/** Work an object started in the background (`ctx.waitUntil`, alarm runs) and not yet ended. */
class Background {
  readonly #running = new Set<Promise<unknown>>();

  /** Counts `work` as running until it settles; answers it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#running.add(work);
    const done = () => void this.#running.delete(work);
    work.then(done, done);
    return work;
  }

  /** Resolves once everything running now, and whatever it started meanwhile, has ended. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}

/**
 * Hands `host` a `ctx` whose `waitUntil` also counts the work as running: the host's inline
 * alarm runs (`scheduleAlarm`) and its registrations with the reconciler (`arm`) go through
 * it. The event stream's relays to the hub keep the object's own `ctx` (captured when the host
 * was made), so they are not counted, as they were not before.
 */
function recordHost<E extends CoreEnv>(host: ObjectHost<E>): Background {
  const background = new Background();
  const ctx = host.ctx;
  const recording = new Proxy(ctx, {
    get(target, name) {
      if (name === "waitUntil")
        return (work: Promise<unknown>) => target.waitUntil(background.track(work));
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  (host as { ctx: DurableObjectState }).ctx = recording;
  return background;
}

/** A hosted object's class: its `host` and its alarm are what the hook below records. */
// biome-ignore lint/suspicious/noExplicitAny: a mixin's base constructor takes any arguments.
type Hosted = new (...args: any[]) => { host: ObjectHost<any>; alarm(): Promise<void> };

/**
 * `Base` (the order, top-up or payout object) with `registrationsSettled()`: resolves once
 * every alarm run (with its inline delivery of the index feed) and every registration with
 * the reconciler started so far has ended, and what they started. The runtime's alarm runs
 * count too (the inline ones go through `ctx.waitUntil`).
 */
function settling<B extends Hosted>(Base: B) {
  return class extends Base {
    readonly #background = recordHost(this.host);

    override alarm(): Promise<void> {
      return this.#background.track(super.alarm());
    }

    registrationsSettled(): Promise<void> {
      return this.#background.settled();
    }
  };
}

export class OrderObject extends settling(shipped.OrderObject) {}
export class DepositObject extends settling(shipped.DepositObject) {}
export class PayoutObject extends settling(shipped.PayoutObject) {}

/**
 * The shipped sweep, taken before any test replaces the class's `alarm` (`reconciler.test.ts`
 * holds the runtime's alarm runs back with a spy; a sweep the test asks for must not wait).
 */
const sweep = shipped.ReconcilerObject.prototype.alarm as unknown as () => Promise<SweepReport>;

export class ReconcilerObject extends shipped.ReconcilerObject {
  /** Tracked objects, those due now, and the next sweep (its alarm). */
  async tracked(): Promise<{ rows: number; due: number; nextSweepAt: number | null }> {
    const counts = trackedCounts(this.ctx.storage.sql, Date.now());
    return { ...counts, nextSweepAt: await this.ctx.storage.getAlarm() };
  }

  /** Makes every tracked object due and sweeps now, as the alarm does ("time passed"). */
  sweepNow(): Promise<SweepReport> {
    makeAllDue(this.ctx.storage.sql, Date.now());
    return sweep.call(this);
  }
}

export class StreamHubObject extends shipped.StreamHubObject {
  readonly #background: Background;

  constructor(ctx: DurableObjectState, env: CoreEnv) {
    // Every `waitUntil` of the hub is an "unwatched" message or an alarm set after an announce.
    const background = new Background();
    const own = ctx.waitUntil.bind(ctx);
    ctx.waitUntil = (work: Promise<unknown>) => own(background.track(work));
    super(ctx, env);
    this.#background = background;
  }

  /** Resolves once every "unwatched" message in flight (and alarm being set) was delivered. */
  settled(): Promise<void> {
    return this.#background.settled();
  }

  /**
   * Open streams of one object here. The hub's entries are private: an empty `publish` of
   * `key` hands its entry to `WatchedEntry.relay` (synchronously, and relaying nothing), which
   * is watched for that one call.
   */
  streams(key: string): number {
    let found: WatchedEntry | null = null;
    const relay = WatchedEntry.prototype.relay;
    WatchedEntry.prototype.relay = function (this: WatchedEntry, frames) {
      found = this;
      relay.call(this, frames);
    };
    try {
      void this.publish(key, []);
    } finally {
      WatchedEntry.prototype.relay = relay;
    }
    return (found as WatchedEntry | null)?.streams.size ?? 0;
  }
}

/** Leases `BudgetObject.asked()` remembers at most. */
const ASKED_KEPT = 2_000;

/** Client leases `BudgetObject.clientLeases()` remembers at most (the newest). */
const CLIENT_LEASES_KEPT = 50_000;

/**
 * One lease of a shopper lane asked for a client, as the budget object answered it: when (its
 * own clock), for whom (the key as the object keeps it), at which rate, what it granted and the
 * window those calls are counted in for the client (`windowOf(spendUntil)`, `lease.ts`).
 */
export interface ClientLease {
  at: number;
  client: string;
  rate: number;
  granted: number;
  window: number;
}

export class BudgetObject extends shipped.BudgetObject {
  /**
   * The shipped budget this one answers with: its state is private, so `forget` starts a new
   * one, as an object evicted after its idle time starts (memory only, `budget-object.ts`).
   */
  #budget = new shipped.BudgetObject(this.ctx, this.env);

  /** The lane and client of the leases asked lately, oldest first. */
  #asked: Pick<LeaseRequest, "priority" | "client">[] = [];

  /** Client leases of the shopper lanes, in the order answered (`clientLeases`). */
  #clientLeases: ClientLease[] = [];

  override async lease(input: LeaseRequest): Promise<Lease> {
    this.#asked.push({
      priority: input.priority,
      ...(input.client ? { client: input.client } : {}),
    });
    if (this.#asked.length > ASKED_KEPT) this.#asked.splice(0, this.#asked.length - ASKED_KEPT);
    // The shipped object reads the same clock: no I/O runs between here and its grant.
    const at = Date.now();
    const lease = await this.#budget.lease(input);
    if (
      typeof input.client === "string" &&
      input.client &&
      SHOPPER_LANES.includes(input.priority)
    ) {
      this.#clientLeases.push({
        at,
        client: input.client.slice(0, MAX_CLIENT_KEY),
        rate: input.ratePerSecond,
        granted: lease.granted,
        window: lease.granted > 0 ? windowOf(lease.spendUntil) : 0,
      });
      if (this.#clientLeases.length > CLIENT_LEASES_KEPT)
        this.#clientLeases.splice(0, this.#clientLeases.length - CLIENT_LEASES_KEPT);
    }
    return lease;
  }

  /** The client leases answered at or after `since` (the object's clock), oldest first. */
  async clientLeases(since: number): Promise<ClientLease[]> {
    return this.#clientLeases.filter((l) => l.at >= since);
  }

  /** The lane and client of the leases asked since the last call (and forgets them). */
  async asked(): Promise<Pick<LeaseRequest, "priority" | "client">[]> {
    return this.#asked.splice(0);
  }

  override rateLimited(retryAfterMs: number): Promise<void> {
    return this.#budget.rateLimited(retryAfterMs);
  }

  override status(): ReturnType<shipped.BudgetObject["status"]> {
    return this.#budget.status();
  }

  /** Drops the counts and any pause (tests: "that much time passed"). */
  async forget(): Promise<void> {
    this.#budget = new shipped.BudgetObject(this.ctx, this.env);
    // Its client shares start over too: the leases before it are another budget's.
    this.#clientLeases = [];
  }
}
