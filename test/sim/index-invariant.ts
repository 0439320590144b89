/**
 * @module index-invariant
 * `index = ledger`: once a history is at rest, the account's index (what `GET /v1/orders` and
 * `GET /v1/notifications` answer) equals the order's ledger: the summary's state, amounts,
 * currency, attempts, the service's last status, the crypto rule of `order/order-summary.ts`,
 * `paidAt`; and the log holds exactly the order's notifications, each with the outbox's
 * attempts and delivery state. The index is fed only through the order's outbox, under the
 * same faults as everything else, so this checks that the feed converges.
 */
import Big from "big.js";
import type { NotificationView, OrderSummary } from "../../worker/lib/api/merchant-ops.ts";
import type { OrderLedger } from "../../worker/order/ledger-view.ts";
import { merchant } from "../worker/helpers.ts";

type Check = (invariant: string, ok: boolean, detail: () => string) => void;

/** The crypto columns as `order-summary.ts` derives them, from the ledger's rows. */
function cryptoOf(ledger: OrderLedger) {
  const codeOf = (a: OrderLedger["attempts"][number]) =>
    a.cryptoCurrencyCode ?? ledger.payments.find((p) => p.attempt === a.number)?.cryptoCode ?? null;
  const code =
    [...ledger.attempts]
      .reverse()
      .map(codeOf)
      .find((c) => c !== null) ?? null;
  if (code === null) return { code: null, received: null };
  const received = ledger.attempts
    .filter((a) => codeOf(a) === code)
    .reduce((s, a) => s.plus(a.cryptoReceived ?? "0"), new Big(0));
  return { code, received };
}

/**
 * Checks the index against the ledger (the history's order only).
 * @example
 * await checkIndex(check, world.sub, ledger);
 */
export async function checkIndex(check: Check, sub: string, ledger: OrderLedger): Promise<void> {
  const listed = (await (await merchant(`/v1/orders?invoicePrefix=${sub}`)).json()) as {
    data: OrderSummary[];
  };
  const row = listed.data.find((o) => o.invoiceNumber === sub);
  const last = ledger.attempts[ledger.attempts.length - 1];
  const crypto = cryptoOf(ledger);
  const expected = {
    state: ledger.state,
    amount: ledger.amount,
    currency: ledger.currency,
    amountPaid: ledger.amountPaid,
    attempts: ledger.attempts.length,
    lastInvoiceStatus: last?.status ?? null,
    createdAt: ledger.createdAt,
    cryptoCurrencyCode: crypto.code,
    paidAt: ledger.notifications.find((n) => n.type === "order.paid")?.createdAt ?? null,
  };
  const actual = row && {
    state: row.state,
    amount: row.amount,
    currency: row.currency,
    amountPaid: row.amountPaid,
    attempts: row.attempts,
    lastInvoiceStatus: row.lastInvoiceStatus,
    createdAt: row.createdAt,
    cryptoCurrencyCode: row.cryptoCurrencyCode,
    paidAt: row.paidAt,
  };
  check(
    "index-order=ledger",
    JSON.stringify(actual) === JSON.stringify(expected) &&
      (crypto.received === null
        ? row?.cryptoAmountReceived === null
        : crypto.received.eq(row?.cryptoAmountReceived ?? "NaN")),
    () =>
      `index ${JSON.stringify(row ?? null)}, ledger ${JSON.stringify(expected)} received ${crypto.received}`,
  );

  const logged = (await (
    await merchant(`/v1/notifications?invoiceNumber=${sub}&limit=100`)
  ).json()) as { data: NotificationView[] };
  // The order's own (a refund's payout reports from its own outbox, about the same invoice).
  const mine = (n: NotificationView) => n.invoiceNumber === sub && n.type.startsWith("order.");
  const seen = new Map(logged.data.filter(mine).map((n) => [n.id, n]));
  const mismatched = ledger.notifications.filter((n) => {
    const v = seen.get(n.id);
    const status = n.deliveredAt === null ? v?.status !== "delivered" : v?.status === "delivered";
    return !v || v.attempts !== n.attempts || !status || v.type !== n.type;
  });
  check(
    "index-notifications=outbox",
    mismatched.length === 0 && seen.size === ledger.notifications.length,
    () =>
      `${mismatched.length} differ (${mismatched.map((n) => n.id).join(",")}); log ${seen.size}, outbox ${ledger.notifications.length}`,
  );
}
