/**
 * @module
 * Follows the order's open x402 payments to their outcome when no webhook says it: a settle
 * whose answer was lost (`unknown`) and a broadcast not yet confirmed (`submitted`). Each due
 * payment is read from the service's settlements (`GET /x402/settlements`, filtered by
 * transaction, or by payer and wallet for an unknown one), at reconciliation priority, so the
 * reads stay inside the deployment's upstream budget. A capability of the order: it reports
 * when it must wake (`nextWake`), and the object's one alarm runs it (`wake`).
 *
 * An unknown payment matches the one settlement of its payer, wallet and amount created since
 * the claim that no other payment of the order holds. When none exists once the authorization
 * can no longer settle (`validBefore` is at most `maxTimeoutSeconds` ahead of the claim), the
 * payment failed: the order is payable again. A later `confirmed` from the service still wins
 * (`settlement-step.ts` `WORKER_GAVE_UP`).
 */

import { facilitatorFor } from "../../core/config/upstream.ts";
import { X402_MAX_TIMEOUT_SECONDS } from "../../core/config/x402-settings.ts";
import { gateRetryAt, RECONCILE_READ } from "../../core/converge/reconcile.ts";
import type { X402Settlement } from "../../service/facilitator.ts";
import type { OrderHost } from "../order-host.ts";
import { applySettlementFact } from "./apply-settlement.ts";
import { type X402PaymentRow, x402Payments } from "./payments-table.ts";
import { routeTransaction } from "./route-transaction.ts";
import { WORKER_GAVE_UP } from "./settlement-step.ts";

/** The longest gap between two reads of one payment. */
const MAX_GAP_MS = 60_000;
/** Clock skew allowed between the worker and the service when matching by time. */
const SKEW_MS = 60_000;

/**
 * Whether `settlement` is this payment's: the same payer, wallet, amount and network, and the
 * same transaction once both know one (an unknown payment knows none yet).
 *
 * @example
 * const mine = page.items.find((settlement) => matches(row, settlement));
 */
export function matches(row: X402PaymentRow, settlement: X402Settlement): boolean {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return (
    same(settlement.payer, row.payer) &&
    same(settlement.payTo, row.payTo) &&
    settlement.amount === row.value &&
    same(settlement.network, row.network) &&
    (!row.transaction || !settlement.transaction || same(settlement.transaction, row.transaction))
  );
}

/** The follow's face on the order. */
export const x402Follow = {
  /** When a read is due next, epoch ms, or null. */
  nextWake(host: OrderHost): number | null {
    return host.hasSchema() ? x402Payments.nextReadAt(host.store.sql) : null;
  },

  /** Reads every due payment once (the alarm's run); answers how many were due. */
  async wake(host: OrderHost, now = Date.now()): Promise<number> {
    if (!host.hasSchema()) return 0;
    const due = x402Payments.due(host.store.sql, now);
    for (const [i, row] of due.entries()) {
      try {
        await readOne(host, row, now);
      } catch (error) {
        // The budget had no call for a read at reconciliation priority: no read was made, so
        // no failure counts; this one and the rest wait for the budget's retry time (the next
        // would meet the same refusal), as the reconciler's reads do.
        const retryAt = gateRetryAt(error, Date.now());
        if (retryAt !== null) {
          for (const waiting of due.slice(i)) scheduleRead(host, waiting, retryAt, false);
          break;
        }
        host.logger().warn("x402.read_failed", { nonce: row.nonce, error: String(error) });
        reschedule(host, row, now);
      }
    }
    return due.length;
  },
};

async function readOne(host: OrderHost, row: X402PaymentRow, now: number): Promise<void> {
  const facilitator = facilitatorFor(host.config(), RECONCILE_READ);
  if (!facilitator) return;
  const settlement = await find(host, facilitator, row);
  if (settlement) {
    await applySettlement(host, row.nonce, settlement);
    const after = x402Payments.byNonce(host.store.sql, row.nonce);
    if (
      after &&
      after.nextReadAt > 0 &&
      after.status !== "confirmed" &&
      after.status !== "failed"
    ) {
      reschedule(host, after, now);
    }
    return;
  }
  const claimedAt = Date.parse(row.createdAt);
  const lastChance = claimedAt + (X402_MAX_TIMEOUT_SECONDS + 60) * 1000 + SKEW_MS;
  if (row.status === "unknown" && now > lastChance) {
    await applySettlementFact(host, row.nonce, {
      status: "failed",
      errorReason: WORKER_GAVE_UP,
    });
    return;
  }
  reschedule(host, row, now);
}

/** The service's settlement of this payment, or null when it has none (yet). */
async function find(
  host: OrderHost,
  facilitator: NonNullable<ReturnType<typeof facilitatorFor>>,
  row: X402PaymentRow,
): Promise<X402Settlement | null> {
  if (row.settlementId) return facilitator.getSettlement(row.settlementId);
  const from = new Date(Date.parse(row.createdAt) - SKEW_MS).toISOString();
  const page = await facilitator.listSettlements(
    row.transaction
      ? { transaction: row.transaction, limit: 5 }
      : { payer: row.payer, payTo: row.payTo, from, limit: 50 },
  );
  // A settlement another payment of this order already holds is not this one's.
  const held = new Set(
    x402Payments
      .all(host.store.sql)
      .filter((other) => other.nonce !== row.nonce && other.settlementId)
      .map((other) => other.settlementId),
  );
  return page.items.find((s) => matches(row, s) && !held.has(s.id)) ?? null;
}

/**
 * Applies a settlement the service reports to the payment with `nonce`; a transaction the
 * payment did not know yet (learned by reading) is routed to this order for its webhooks.
 */
export async function applySettlement(host: OrderHost, nonce: string, settlement: X402Settlement) {
  const before = x402Payments.byNonce(host.store.sql, nonce);
  const order = host.store.order();
  if (settlement.transaction && before && !before.transaction && order) {
    await routeTransaction(host, settlement.transaction, order.checkoutId);
  }
  return applySettlementFact(host, nonce, {
    status: settlement.status,
    transaction: settlement.transaction || null,
    settlementId: settlement.id,
    errorReason: settlement.errorReason,
    confirmedAt: settlement.confirmedAt,
  });
}

/**
 * Sets an open payment's next read to `at`; `read` counts one more read made (a deferral by
 * the budget made none). A payment that ended meanwhile is left as it is.
 */
function scheduleRead(host: OrderHost, row: X402PaymentRow, at: number, read: boolean): void {
  const current = x402Payments.byNonce(host.store.sql, row.nonce);
  if (!current || current.status === "confirmed" || current.status === "failed") return;
  const reads = current.reads + (read ? 1 : 0);
  host.transaction(() => x402Payments.save(host.store.sql, { ...current, reads, nextReadAt: at }));
}

/** The next read: the gap doubles from 2 s, at most `MAX_GAP_MS`. */
function reschedule(host: OrderHost, row: X402PaymentRow, now: number): void {
  const gap = Math.min(MAX_GAP_MS, 2_000 * 2 ** Math.min(row.reads, 10));
  scheduleRead(host, row, now + gap, true);
}
