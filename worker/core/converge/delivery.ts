/**
 * @module
 * The one webhook path every object shares: dedupe → superseded? → admit the delivery's signed
 * record as a read (or, when it has none, refetch) → acknowledge only what the known state
 * covers.
 *
 * A verified delivery is a read. Its `data` is the whole upstream object as the service held it
 * at the envelope's signed `timestamp` (the wire contract and the service's SDK: the same shape
 * as a GET, plus `previousStatus`), as authentic as a GET answer. So a delivery whose `data`
 * passes the GET schema (`record`) is admitted through the monotonic facts exactly like a read
 * (`followed.ts` `admitRead`): no upstream call. Older than what is known, it changes nothing
 * and is acknowledged; otherwise it is applied and acknowledged. Duplicated, reordered and stale
 * deliveries are therefore harmless: the facts decide, not the order of arrival.
 *
 * Superseded: the delivery was sent (envelope `timestamp`, signed) strictly before one already
 * acknowledged for the same upstream object, so its state is older than the known one in time.
 * This orders the statuses of equal rank the service moves between both ways (processing ⇄
 * suspended), which the facts alone cannot: such a delivery is acknowledged and ignored
 * (`superseded: true`) unless it announces strictly more progress than is known (a higher rank,
 * or more received), which is never past (the service only moves forward): then it is handled
 * as any other delivery.
 *
 * A delivery without a usable record (its `data` fails the schema) takes the refetch path: the
 * object reads itself from the service and the delivery is answered 2xx and remembered only
 * when the known facts then cover what it announced (`facts.ts` `covers`); a refetch that
 * failed or read an older state (a lagging replica) is answered 503 and not remembered, and a
 * reconciliation read is brought forward, so the object converges even if no redelivery comes.
 *
 * Equal stamps cannot be ordered, and a delivery without a usable stamp cannot be placed: neither
 * is ever superseded.
 */
import type { Logger } from "../../lib/log.ts";
import { failure, type Outcome, success } from "../../lib/outcome/outcome.ts";
import { upstreamFailure } from "../../service/upstream-failure.ts";
import { covers, type Facts, isOlder } from "./facts.ts";
import { followedState, hurryReads, knownFacts, recordAcked } from "./followed.ts";
import { InvariantBroken } from "./invariant.ts";
import { CATCH_UP_MS } from "./schedule.ts";
import type { UpstreamKind } from "./status-rank.ts";

/** What an object answers about one delivery (see `edge/webhooks/answers.ts`). */
export type DeliveryOutcome = Outcome<{
  known: boolean;
  duplicate: boolean;
  /** True when it was acknowledged unread: a newer delivery was acknowledged before. */
  superseded?: boolean;
}>;

/** One verified webhook delivery, as the route hands it to the object that may own it. */
export interface Delivery<R = unknown> {
  /** The upstream object's id (invoice, deposit or withdrawal). */
  id: string;
  /** Dedupe key: the hash of the delivery's raw body (identical deliveries apply once). */
  key: string;
  /**
   * The status and amount the delivery announced (from its record when it has one, with the
   * object's own facts rule); null when it carried no status.
   */
  announced: Facts | null;
  /**
   * When the service sent it: epoch ms of the envelope's signed `timestamp`
   * (`edge/webhooks/sent-at.ts`); null when missing or unusable (then never superseded).
   */
  sentAt: number | null;
  /**
   * The signed `data` parsed with the GET schema (`edge/webhooks/record.ts`): the service's record
   * at `sentAt`, applied as a read. Null when `data` fails the schema (then refetched).
   */
  record: R | null;
}

/** True when `announced` is strictly further than `known` (a higher rank, or more received). */
function beyond(kind: UpstreamKind, known: Facts | null, announced: Facts | null): boolean {
  if (!announced) return false;
  return known === null || isOlder(kind, known, announced);
}

/**
 * Where an object remembers the deliveries it applied (the event log's `deliveries` table,
 * `core/events/event-log.ts`). Named here so the convergence rules never import the event log:
 * `events/` builds on `converge/`, not the other way round.
 */
export interface DeliveryMemory {
  hasDelivery(key: string): boolean;
  rememberDelivery(key: string, at: string): void;
}

/**
 * Handles one verified delivery about a followed object the caller owns. Run it inside the
 * object's lane (`Lane.webhook` in `core/events/lane-capability.ts` does, and is the one
 * caller). `admit` applies the delivery's record as a read (no upstream call); `refetch`
 * reads the object from the service and applies it, throwing the upstream error when the
 * read fails. Either may answer an outcome itself (not ours, or a failure): that answer is
 * returned and nothing is remembered.
 *
 * @example
 * return this.lane.run(() => applyDelivery({ log: this.log, sql, kind: "deposit", delivery,
 *   logger, admit: (d) => this.#apply(d, "webhook"), refetch: () => this.#readAndApply(id) }));
 */
export async function applyDelivery<R>(input: {
  log: DeliveryMemory;
  sql: SqlStorage;
  kind: UpstreamKind;
  delivery: Delivery<R>;
  logger: Logger;
  admit: (record: R) => Promise<DeliveryOutcome | undefined>;
  refetch: () => Promise<DeliveryOutcome | undefined>;
}): Promise<DeliveryOutcome> {
  const { log, sql, kind, logger } = input;
  const { id, key, announced, sentAt, record } = input.delivery;
  if (log.hasDelivery(key)) return success({ known: true, duplicate: true });
  const state = followedState(sql, kind, id);
  const known = state?.facts ?? null;
  const superseded =
    sentAt !== null && state?.ackedAt !== null && state !== null && sentAt < state.ackedAt;
  // Past in time and no further in progress: the known state covers it.
  if (superseded && known !== null && !beyond(kind, known, announced)) {
    logger.warn("webhook.superseded", {
      kind,
      announced: announced?.status ?? null,
      known: known.status,
      behindMs: state.ackedAt! - sentAt!,
    });
    log.rememberDelivery(key, new Date().toISOString());
    return success({ known: true, duplicate: false, superseded: true });
  }
  if (record !== null) {
    const answered = await input.admit(record);
    if (answered) return answered;
    return acknowledged(log, sql, kind, input.delivery);
  }
  try {
    const answered = await input.refetch();
    if (answered) {
      if (!answered.ok) hurryReads(sql, Date.now() + CATCH_UP_MS, { kind, id });
      return answered;
    }
  } catch (error) {
    // A bug is no busy service: a broken invariant fails the delivery loudly (500).
    if (error instanceof InvariantBroken) throw error;
    hurryReads(sql, Date.now() + CATCH_UP_MS, { kind, id });
    const failed = upstreamFailure(error, logger);
    return failure(503, "service_busy", failed.ok ? "upstream unavailable" : failed.message);
  }
  const read = knownFacts(sql, kind, id);
  if (announced && (!read || !covers(kind, read, announced))) {
    hurryReads(sql, Date.now() + CATCH_UP_MS, { kind, id });
    logger.warn("webhook.read_behind", {
      kind,
      announced: announced.status,
      read: read?.status ?? null,
    });
    return failure(
      503,
      "service_busy",
      `The ${kind} read back is older than the webhook announced; redeliver later.`,
    );
  }
  return acknowledged(log, sql, kind, input.delivery);
}

/** Remembers a delivery as handled and moves the newest acknowledged send time forward. */
function acknowledged(
  log: DeliveryMemory,
  sql: SqlStorage,
  kind: UpstreamKind,
  delivery: Delivery<unknown>,
): DeliveryOutcome {
  if (delivery.sentAt !== null) recordAcked(sql, kind, delivery.id, delivery.sentAt);
  log.rememberDelivery(delivery.key, new Date().toISOString());
  return success({ known: true, duplicate: false });
}
