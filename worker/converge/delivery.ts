/**
 * @module
 * The one webhook path every object shares: dedupe → superseded? → refetch → admit →
 * acknowledge only what was applied.
 *
 * Invariant: a delivery is answered 2xx and remembered as handled only when the object's known
 * facts after the refetch cover what the delivery announced (`facts.ts`), or when it is
 * superseded. A refetch that failed, or that read an older state than announced (a lagging
 * replica), is answered 503 and not remembered: the service redelivers, and a reconciliation
 * read is brought forward meanwhile, so the object converges even if the redelivery never comes.
 *
 * Superseded: the delivery was sent (envelope `timestamp`, signed) strictly before one already
 * acknowledged for the same upstream object. That newer delivery's state is later than this
 * one's, and it was covered by facts the worker read, so this one's state is past: answered 200
 * without a refetch, nothing applied. This is what settles a status the service really left
 * (processing → suspended → processing: a read of `processing` never covers `suspended`, see
 * `covers`). Equal stamps cannot be ordered and a delivery without a usable stamp cannot be
 * placed: both take the rule above, so a lagging read for the newest delivery is still a 503.
 */
import type { EventLog } from "../events/event-log.ts";
import type { Logger } from "../http/log.ts";
import { failure, type Outcome, success } from "../outcome/outcome.ts";
import { upstreamFailure } from "../outcome/upstream-failure.ts";
import { covers, type Facts } from "./facts.ts";
import { ackedAt, hurryReads, knownFacts, recordAcked } from "./followed.ts";
import { CATCH_UP_MS } from "./schedule.ts";
import type { UpstreamKind } from "./status-rank.ts";

/** What an object answers about one delivery (see `webhooks/answers.ts`). */
export type DeliveryOutcome = Outcome<{
  known: boolean;
  duplicate: boolean;
  /** True when it was acknowledged unread: a newer delivery was acknowledged before. */
  superseded?: boolean;
}>;

/** One verified webhook delivery, as the route hands it to the object that may own it. */
export interface Delivery {
  /** The upstream object's id (invoice, deposit or withdrawal). */
  id: string;
  /** Dedupe key: the hash of the delivery's raw body (identical deliveries apply once). */
  key: string;
  /** The status and amount the delivery announced; null when it carried no status. */
  announced: Facts | null;
  /**
   * When the service sent it: epoch ms of the envelope's signed `timestamp`
   * (`webhooks/sent-at.ts`); null when missing or unusable (then never superseded).
   */
  sentAt: number | null;
}

/**
 * Handles one verified delivery about a followed object the caller owns. Run it inside the
 * object's lane (`StoredObject.applyWebhook` does, and is the one caller); `refetch` reads the
 * object from the service and applies it (admitting the read), throwing the upstream error
 * when the read fails.
 *
 * @example
 * return this.lane.run(() => applyDelivery({ log: this.log, sql, kind: "deposit", delivery,
 *   logger, refetch: () => this.#readAndApply(delivery.id) }));
 */
export async function applyDelivery(input: {
  log: EventLog;
  sql: SqlStorage;
  kind: UpstreamKind;
  delivery: Delivery;
  logger: Logger;
  /** Reads and applies; may answer an outcome itself (not ours, or a failure): not remembered. */
  refetch: () => Promise<DeliveryOutcome | undefined>;
}): Promise<DeliveryOutcome> {
  const { log, sql, kind, logger } = input;
  const { id, key, announced, sentAt } = input.delivery;
  if (log.hasDelivery(key)) return success({ known: true, duplicate: true });
  const acked = sentAt === null ? null : ackedAt(sql, kind, id);
  if (sentAt !== null && acked !== null && sentAt < acked) {
    const known = knownFacts(sql, kind, id);
    // A newer delivery was covered, so this state is past. Should the service's clock have
    // stepped back (a newer state stamped earlier), a read within 2 s still finds it.
    if (announced && (!known || !covers(kind, known, announced)))
      hurryReads(sql, Date.now() + CATCH_UP_MS, { kind, id });
    logger.warn("webhook.superseded", {
      kind,
      announced: announced?.status ?? null,
      known: known?.status ?? null,
      behindMs: acked - sentAt,
    });
    log.rememberDelivery(key, new Date().toISOString());
    return success({ known: true, duplicate: false, superseded: true });
  }
  try {
    const answered = await input.refetch();
    if (answered) {
      if (!answered.ok) hurryReads(sql, Date.now() + CATCH_UP_MS, { kind, id });
      return answered;
    }
  } catch (error) {
    hurryReads(sql, Date.now() + CATCH_UP_MS, { kind, id });
    const failed = upstreamFailure(error, logger);
    return failure(503, "service_busy", failed.ok ? "upstream unavailable" : failed.message);
  }
  const known = knownFacts(sql, kind, id);
  if (announced && (!known || !covers(kind, known, announced))) {
    hurryReads(sql, Date.now() + CATCH_UP_MS, { kind, id });
    logger.warn("webhook.read_behind", {
      kind,
      announced: announced.status,
      read: known?.status ?? null,
    });
    return failure(
      503,
      "service_busy",
      `The ${kind} read back is older than the webhook announced; redeliver later.`,
    );
  }
  if (sentAt !== null) recordAcked(sql, kind, id, sentAt);
  log.rememberDelivery(key, new Date().toISOString());
  return success({ known: true, duplicate: false });
}
