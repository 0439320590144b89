/**
 * @module invariants
 * What must hold once a history is at rest, judged against the service's truth (the sandbox's
 * own state, read through views no fault touches), never against the worker's own opinion:
 *
 * - `attempt = service`: every attempt the ledger knows has the service's currency, expected
 *   and received amounts and status; the widget's address and amount are the invoice's; an
 *   invoice holding money is known to the ledger.
 * - `payments once`: per attempt, the payments applied sum to exactly what the service received.
 * - `one order.paid`: the merchant received exactly one `order.paid` iff the ledger is paid, and
 *   the ledger is paid iff the service says an attempt is paid (unless refunded first).
 * - `refunds bounded`: live refund withdrawals never exceed what the service received that can
 *   be refunded, and go only to addresses that pass the checksum; the ledger's refunds = service.
 * - `notifications = ledger`: every notification was delivered, and the money they announce per
 *   attempt equals the ledger's.
 * - `index = ledger`: the account's index (order list, notification log) equals the ledger
 *   and its outbox (`index-invariant.ts`).
 * - `watcher = ledger`: the last snapshot an open widget received is the current snapshot.
 * - `payout = service`, and no step was answered with 500 `internal`.
 * - `upstream calls/s ≤ budget`: the whole deployment's calls to the service in any second
 *   since the history began stayed within `UPSTREAM_MAX_RPS` (`budget.ts`), the facilitator's
 *   and the settlement reads included.
 * - `no client above its share while another waits`: every grant of the shopper lanes since
 *   the history began left its client holding at most its fair share while another client was
 *   active (`fair-shares.ts` states the exact rule).
 * - x402, against the service's settlements of the history's payers (`x402.ts`): the order's
 *   applied money is its invoices' plus the fiat of its confirmed settlements (USD 1:1), and
 *   the merchant was told exactly that; no authorization settled twice; every settlement is
 *   the ledger's payment with its status and transaction, and no payment is left claimed
 *   (`settling`) or believed settled without a settlement.
 */
import Big from "big.js";
import type { CheckoutSnapshot, PayoutView } from "../../packages/contract/src/http-api.ts";
import type { OrderLedger } from "../../worker/order/ledger-view.ts";
import { ledgerOf, merchant } from "../worker/helpers.ts";
import { busiestSecond, SIM_BUDGET } from "./budget.ts";
import { fairShareSince } from "./fair-shares.ts";
import { checkIndex } from "./index-invariant.ts";
import { inbox, invoicesOf, type ServiceInvoice, withdrawalsOf } from "./service.ts";
import { BAD_ADDRESS, GOOD_ADDRESS, type World } from "./world.ts";
import { type ServiceSettlement, settlementsOf } from "./x402.ts";

export interface Violation {
  invariant: string;
  detail: string;
}

const dec = (s: string | null | undefined) => new Big(s ?? "0");
const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? null) === null || (b ?? null) === null ? (a ?? null) === (b ?? null) : dec(a).eq(dec(b));
const ENDED_WITHDRAWAL = new Set(["failed", "cancelled"]);
const REFUND_ID = /-refund(-\d+)?$/;

/**
 * Checks every invariant; answers the violations (empty when the history is correct).
 * @example
 * const violations = await checkInvariants(world);
 */
export async function checkInvariants(world: World): Promise<Violation[]> {
  const out: Violation[] = [];
  const check = (invariant: string, ok: boolean, detail: () => string) => {
    world.stats.check(invariant);
    if (!ok) out.push({ invariant, detail: detail() });
  };
  const [ledger, invoices, withdrawals, snapshot, received, busiest, settlements, shares] =
    await Promise.all([
      ledgerOf(world.sub),
      invoicesOf(world.base),
      withdrawalsOf(world.base),
      world.snapshot(),
      inbox(world.sub),
      busiestSecond(world.startedAt),
      settlementsOf(world),
      fairShareSince(world.startedAt),
    ]);
  const notes = received.filter((n) => n.data.invoiceNumber === world.sub);

  checkAttempts(check, ledger, invoices, snapshot);
  checkPaid(check, ledger, invoices, notes);
  checkRefunds(check, ledger, invoices, withdrawals);
  checkNotifications(check, ledger, notes);
  if (world.x402Signed.length > 0 || ledger.x402Payments.length > 0)
    checkX402(check, world, ledger, settlements, notes);
  await checkIndex(check, world.sub, ledger);
  check(
    "upstream-calls-per-second<=budget",
    busiest.calls <= SIM_BUDGET,
    () =>
      `${busiest.calls} calls to the service in the second at ${busiest.at}, budget ${SIM_BUDGET}`,
  );
  if (shares.contested > 0) world.stats.inject("budget:contested-grants");
  check(
    "no-client-above-its-share-while-another-waits",
    shares.over.length === 0,
    () =>
      shares.over
        .slice(0, 3)
        .map(
          (o) =>
            `client ${o.client} held ${o.held} calls > its share ${o.share} (${o.active} clients active) at ${new Date(o.at).toISOString()}`,
        )
        .join("; ") + (shares.over.length > 3 ? `; … ${shares.over.length} grants in all` : ""),
  );
  check("no-internal-error", world.internalErrors.length === 0, () =>
    world.internalErrors.join("; "),
  );
  if (world.watcher) {
    await world.watcher.caughtUp(snapshot.seq);
    const last = world.watcher.last;
    // A final snapshot ends the stream (the widget's contract: `final` closes it, a reconnect
    // gets 204). A merchant's refund of a paid order's excess made after that is the merchant's
    // business: it reaches the shopper's widget when the checkout is opened again, and the
    // merchant through its notifications. So after a final snapshot the refunds list is not
    // compared; everything else, the order's state included, still is. An order paid two ways
    // is final once one of them paid it while the other may still move: an invoice holding
    // money keeps receiving it, an open x402 payment confirms or fails, the open invoice is
    // cancelled (`cancel-invoice.ts`). Those reach the widget when the checkout is opened again
    // (and the merchant through its notifications): after a final snapshot of an order with
    // x402 payments only its state is compared (reported: the stream's `final` comes while a
    // second payment is in flight).
    const twoWays = last?.final === true && ledger.x402Payments.length > 0;
    const seen = (x: CheckoutSnapshot) =>
      twoWays
        ? { state: x.orderState }
        : last?.final
          ? { ...visible(x), refunds: null }
          : visible(x);
    check(
      "watcher-last-snapshot=ledger",
      last !== null && JSON.stringify(seen(last)) === JSON.stringify(seen(snapshot)),
      () =>
        `watcher saw ${JSON.stringify(last && visible(last))}, ledger ${JSON.stringify(visible(snapshot))}`,
    );
    await world.watcher.stop();
  }
  for (const orderId of world.payouts) {
    const res = await merchant(`/v1/payouts/${orderId}`);
    const view = res.status === 200 ? ((await res.json()) as { data: PayoutView }).data : null;
    const w = withdrawals.find((x) => x.orderId === orderId);
    check(
      "payout=service",
      w ? view?.status === w.status && view.withdrawal?.id === w.id : view?.status !== "created",
      () => `${orderId}: view ${view?.status ?? res.status}, service ${w?.status ?? "none"}`,
    );
  }
  return out;
}

/** What a shopper sees of a snapshot (its `seq` and timestamps aside). */
function visible(s: CheckoutSnapshot) {
  return {
    state: s.orderState,
    paid: s.amountPaid,
    due: s.amountDue,
    canRetry: s.canRetry,
    attempt: s.attempt.number,
    status: s.attempt.status,
    address: s.attempt.payment?.address ?? null,
    received: s.attempt.payment?.received ?? null,
    refunds: (s.refunds ?? []).map((r) => `${r.orderId}:${r.status}`),
    x402: s.x402Payment ? `${s.x402Payment.status}:${s.x402Payment.transaction}` : null,
    x402Offer: s.x402?.amount ?? null,
  };
}

type Check = (invariant: string, ok: boolean, detail: () => string) => void;

function checkAttempts(
  check: Check,
  ledger: OrderLedger,
  invoices: ServiceInvoice[],
  snapshot: CheckoutSnapshot,
) {
  for (const a of ledger.attempts) {
    const inv = invoices.find((i) => i.orderId === a.orderId);
    if (!inv) continue; // never created at the service (its create failed for good)
    // Two failures apart: a currency the service never chose (money misbooked), and the
    // service's choice (the hosted page, a lock whose answer was lost) never adopted.
    const mine = a.cryptoCurrencyCode ?? null;
    const theirs = inv.cryptoCurrencyCode ?? null;
    check("attempt-currency=service", mine === null || mine === theirs, () => {
      return `${a.orderId}: ledger ${mine}, service ${theirs}`;
    });
    check("attempt-currency-adopted", mine !== null || theirs === null, () => {
      return `${a.orderId}: ledger none, service ${theirs}`;
    });
    check(
      "attempt=service",
      a.status === inv.status &&
        same(a.cryptoExpected, inv.cryptoAmountExpected) &&
        dec(a.cryptoReceived).eq(dec(inv.cryptoAmountReceived)),
      () =>
        `${a.orderId}: ledger ${a.status}${a.ended ? " (ended)" : ""} ${a.cryptoExpected}/${a.cryptoReceived}, service ${inv.status} ${inv.cryptoAmountExpected}/${inv.cryptoAmountReceived}`,
    );
    const paid = dec(a.cryptoReceived);
    const applied = ledger.payments
      .filter((p) => p.attempt === a.number)
      .reduce((s, p) => s.plus(p.cryptoAmount), new Big(0));
    check("payments-applied-once", applied.eq(paid), () => {
      return `${a.orderId}: payments sum ${applied}, attempt received ${paid}`;
    });
  }
  for (const inv of invoices) {
    if (dec(inv.cryptoAmountReceived).gt(0)) {
      check(
        "money-known-to-ledger",
        ledger.attempts.some((a) => a.orderId === inv.orderId),
        () => {
          return `${inv.orderId} received ${inv.cryptoAmountReceived} but the ledger has no such attempt`;
        },
      );
    }
  }
  const shown = snapshot.attempt;
  const inv = invoices.find((i) => i.orderId === shown.orderId);
  if (shown.payment && inv) {
    check(
      "widget-address=service",
      shown.payment.cryptoCurrencyCode === inv.cryptoCurrencyCode &&
        shown.payment.address === inv.address &&
        same(shown.payment.amount, inv.cryptoAmountExpected),
      () =>
        `${shown.orderId}: widget ${shown.payment?.amount} ${shown.payment?.cryptoCurrencyCode} to ${shown.payment?.address}, service ${inv.cryptoAmountExpected} ${inv.cryptoCurrencyCode} to ${inv.address}`,
    );
  }
}

function checkPaid(
  check: Check,
  ledger: OrderLedger,
  invoices: ServiceInvoice[],
  notes: { id: string; type: string }[],
) {
  // Notifications are at least once, deduped by `id` (README): a delivery repeated after its
  // 2xx was lost (the object restarted before recording it) is the same notification.
  const paidNotes = new Set(notes.filter((n) => n.type === "order.paid").map((n) => n.id)).size;
  const outboxPaid = ledger.notifications.filter((n) => n.type === "order.paid").length;
  check(
    "one-order.paid-iff-paid",
    paidNotes === (ledger.state === "paid" ? 1 : 0) && outboxPaid <= 1,
    () => `ledger ${ledger.state}, merchant got ${paidNotes} order.paid (outbox ${outboxPaid})`,
  );
  const servicePaid = invoices.some((i) => i.status === "paid" || i.status === "overpaid");
  if (servicePaid && ledger.state !== "refunded") {
    check("paid-at-service=>ledger-paid", ledger.state === "paid", () => {
      return `service has a paid attempt, ledger is ${ledger.state}`;
    });
  }
}

function checkRefunds(
  check: Check,
  ledger: OrderLedger,
  invoices: ServiceInvoice[],
  withdrawals: {
    orderId: string;
    status: string;
    address: string;
    amount: string;
    cryptoCurrencyCode: string;
  }[],
) {
  const refunds = withdrawals.filter((w) => REFUND_ID.test(w.orderId));
  for (const w of refunds) {
    check("refund-to-checked-address", w.address === GOOD_ADDRESS, () => {
      return `${w.orderId} paid to ${w.address === BAD_ADDRESS ? "an address with a broken checksum" : w.address}`;
    });
    const mine = ledger.refunds.find((r) => r.orderId === w.orderId);
    check(
      "ledger-refund=service",
      mine !== undefined && mine.status === w.status && same(mine.amount, w.amount),
      () => `${w.orderId}: ledger ${mine?.status} ${mine?.amount}, service ${w.status} ${w.amount}`,
    );
  }
  const live = refunds.filter((w) => !ENDED_WITHDRAWAL.has(w.status));
  const currencies = new Set(live.map((w) => w.cryptoCurrencyCode));
  for (const code of currencies) {
    const refunded = live
      .filter((w) => w.cryptoCurrencyCode === code)
      .reduce((s, w) => s.plus(w.amount), new Big(0));
    const inCode = invoices.filter((i) => i.cryptoCurrencyCode === code);
    const refundable =
      ledger.state === "paid"
        ? inCode
            .filter((i) => i.status === "overpaid")
            .reduce(
              (s, i) => s.plus(dec(i.cryptoAmountReceived).minus(dec(i.cryptoAmountExpected))),
              new Big(0),
            )
            .plus(beyondAmount(ledger.amount, invoices, code, walletPaid(ledger)))
        : inCode.reduce((s, i) => s.plus(dec(i.cryptoAmountReceived)), new Big(0));
    check("refunds<=refundable", refunded.lte(refundable), () => {
      return `${refunded} ${code} refunded, ${refundable} refundable (order ${ledger.state})`;
    });
  }
}

/**
 * The most crypto in `code` worth, at each invoice's own rate, what the invoices paid together
 * beyond the order's amount: exact, and taken from the invoices with the most crypto per fiat
 * first, so it bounds whatever the worker returns (its shares are rounded down).
 */
function beyondAmount(
  amount: string,
  invoices: ServiceInvoice[],
  code: string,
  wallet: Big = new Big(0),
): Big {
  const rate = (i: ServiceInvoice) => dec(i.cryptoAmountExpected).div(dec(i.amount));
  const fiatPaid = (i: ServiceInvoice) => {
    const expected = dec(i.cryptoAmountExpected);
    if (expected.lte(0) || dec(i.amount).lte(0)) return new Big(0);
    const received = dec(i.cryptoAmountReceived);
    return (received.lt(expected) ? received : expected).div(rate(i));
  };
  // Money paid by x402 straight to the merchant's wallet counts towards the order too: with it,
  // more of the invoices' crypto is beyond the amount.
  let left = invoices.reduce((s, i) => s.plus(fiatPaid(i)), wallet).minus(amount);
  let crypto = new Big(0);
  const inCode = invoices.filter((i) => i.cryptoCurrencyCode === code && dec(i.amount).gt(0));
  for (const i of inCode.sort((a, b) => rate(b).cmp(rate(a)))) {
    if (left.lte(0)) break;
    const paid = fiatPaid(i);
    const share = paid.lt(left) ? paid : left;
    crypto = crypto.plus(share.times(rate(i)));
    left = left.minus(share);
  }
  return crypto;
}

function checkNotifications(
  check: Check,
  ledger: OrderLedger,
  notes: { id: string; type: string; data: Record<string, unknown> }[],
) {
  const undelivered = ledger.notifications.filter((n) => n.deliveredAt === null);
  check("notifications-delivered", undelivered.length === 0, () => {
    return `${undelivered.length} of ${ledger.notifications.length} never delivered`;
  });
  for (const a of ledger.attempts) {
    const announced = notes
      .filter((n) => n.type === "order.payment_applied" && n.data.orderId === a.orderId)
      // An x402 payment names the attempt current when it was applied; its money is the wallet's.
      .filter((n) => n.data.paymentMethod !== "x402")
      .filter((n, i, all) => all.findIndex((m) => m.id === n.id) === i)
      .reduce((s, n) => s.plus(String(n.data.cryptoAmount)), new Big(0));
    check("notified-money=ledger", announced.eq(dec(a.cryptoReceived)), () => {
      return `${a.orderId}: notifications announce ${announced}, ledger received ${a.cryptoReceived ?? 0}`;
    });
  }
}

/** The fiat the ledger applied from x402 payments: what is paid beyond its invoices' money. */
function walletPaid(ledger: OrderLedger): Big {
  return ledger.attempts.reduce((s, a) => s.minus(a.fiatApplied), dec(ledger.amountPaid));
}

const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

/** USDC atomic units (6 decimals) as fiat, USD 1:1. */
const usd = (atomic: string) => new Big(atomic).div(1_000_000);

function checkX402(
  check: Check,
  world: World,
  ledger: OrderLedger,
  settlements: ServiceSettlement[],
  notes: { id: string; type: string; data: Record<string, unknown> }[],
) {
  const confirmed = settlements.filter((s) => s.status === "confirmed");
  const confirmedFiat = confirmed.reduce((sum, s) => sum.plus(usd(s.amount)), new Big(0));
  const wallet = walletPaid(ledger);
  check("x402:amountPaid=invoices+confirmed-settlements", wallet.eq(confirmedFiat), () => {
    return `ledger amountPaid ${ledger.amountPaid} = invoices ${dec(ledger.amountPaid).minus(wallet)} + x402 ${wallet}; the service confirmed ${confirmedFiat} USD in ${confirmed.length} settlement(s)`;
  });
  // One nonce per payer in a history (each payment is a fresh wallet's one authorization).
  for (const signed of world.x402Signed) {
    const mine = settlements.filter((s) => sameAddress(s.payer, signed.payer));
    check("x402:one-settlement-per-authorization", mine.length <= 1, () => {
      return `payer ${signed.payer} nonce ${signed.nonce.slice(0, 12)}: ${mine.length} settlements (${mine.map((s) => `${s.id} ${s.status}`).join(", ")})`;
    });
  }
  for (const s of settlements) {
    const row = ledger.x402Payments.find((p) => sameAddress(p.payer, s.payer));
    check("x402:settlement-known-to-ledger", row !== undefined, () => {
      return `settlement ${s.id} (${s.status}, ${s.amount} from ${s.payer}) is no payment of the ledger`;
    });
    if (s.status === "confirmed") {
      check(
        "x402:confirmed-in-ledger",
        row?.status === "confirmed" && sameAddress(row.transaction, s.transaction),
        () =>
          `settlement ${s.id} confirmed (tx ${s.transaction.slice(0, 12)}), ledger ${row?.status ?? "none"} tx ${row?.transaction?.slice(0, 12) ?? "none"}`,
      );
    }
  }
  for (const p of ledger.x402Payments) {
    const s = settlements.find((x) => sameAddress(x.payer, p.payer));
    check("x402:no-claim-left-settling", p.status !== "settling", () => {
      return `payment from ${p.payer} still settling at rest (service: ${s ? `${s.id} ${s.status}` : "no settlement"})`;
    });
    check(
      "x402:payment=service",
      s
        ? p.status === s.status && sameAddress(p.transaction, s.transaction)
        : p.status === "failed" || p.status === "unknown" || p.status === "settling",
      () =>
        `payment from ${p.payer}: ledger ${p.status} tx ${p.transaction?.slice(0, 12) ?? "none"}, service ${s ? `${s.status} tx ${s.transaction.slice(0, 12)}` : "no settlement"}`,
    );
  }
  const announced = notes
    .filter((n) => n.type === "order.payment_applied" && n.data.paymentMethod === "x402")
    .filter((n, i, all) => all.findIndex((m) => m.id === n.id) === i)
    .reduce((sum, n) => sum.plus(String(n.data.fiatAmount)), new Big(0));
  check("x402:notified-money=ledger", announced.eq(wallet), () => {
    return `notifications announce ${announced} USD by x402, the ledger applied ${wallet}`;
  });
}
