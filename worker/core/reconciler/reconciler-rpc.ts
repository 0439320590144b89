/**
 * @module
 * What objects and the reconciler say to each other (`ReconcilerObject`, one per service
 * account), without importing either class.
 *
 * An object that follows upstream objects registers each one's schedule with the reconciler
 * whenever it changes (opened, read, watched, unwatched, ended: `Registration`); the reconciler
 * reads the due ones in batches (list pages) and calls the object back (`FollowerRpc`).
 */

import type { Deposit, Invoice, Withdrawal } from "../../service/types.ts";
import type { Followed } from "../converge/followed.ts";
import type { UpstreamKind } from "../converge/status-rank.ts";

/** Which Durable Object namespace an object lives in (its binding's name). */
export type FollowerNamespace = "ORDERS" | "DEPOSITS" | "PAYOUTS";

/** One upstream object's schedule as its object knows it. */
export interface Registration {
  kind: UpstreamKind;
  id: string;
  /** The object that follows it: namespace and id (hex), to call it back. */
  namespace: FollowerNamespace;
  owner: string;
  /** Next read (epoch ms); null = no longer followed (final, past its window, forgotten). */
  nextReadAt: number | null;
  gapMs: number;
  keepUntil: number | null;
  watched: boolean;
  /** The object's known facts (`core/converge/facts.ts`). */
  status: string;
  received: string;
  /**
   * The fingerprint of the newest record the object admitted (32 hex characters,
   * `core/converge/record-fingerprint.ts`), so that record is not handed back; null or absent
   * when not known.
   */
  seen?: string | null;
}

/**
 * A registered object's new facts and read time, sent through the object's index feed rather
 * than a registration (`core/events/facts-feed.ts`): it updates a tracked row, never adds one.
 */
export type FactsUpdate = Pick<
  Registration,
  "kind" | "id" | "status" | "received" | "nextReadAt" | "gapMs"
> & { seen: string | null };

/** A full record from a list page, by kind. */
export type ListedRecord =
  | { kind: "invoice"; record: Invoice }
  | { kind: "deposit"; record: Deposit }
  | { kind: "withdrawal"; record: Withdrawal };

/** What every following object answers the reconciler (forwarded to `core/events/object-host.ts`). */
export interface FollowerRpc {
  /** Admits a listed record as a read (older than known: changes nothing), then re-registers. */
  admitListed(listed: ListedRecord): Promise<void>;
  /** Reads one followed object with a single `GET` (it left the open lists), then re-registers. */
  reconcileRead(target: Followed): Promise<void>;
}

/** The reconciler's RPC methods (see `reconciler-object.ts`). */
export interface ReconcilerRpc extends Rpc.DurableObjectBranded {
  register(rows: Registration[]): Promise<void>;
}

/** What one sweep did. */
export interface SweepReport {
  due: number;
  pages: number;
  handed: number;
  unchanged: number;
  singleReads: number;
  /** True when a call was refused past the sweep's wait: the rest waits for the next sweep. */
  deferred: boolean;
  /** Times the sweep waited for the budget's next window and read the same page again. */
  budgetWaits: number;
}
