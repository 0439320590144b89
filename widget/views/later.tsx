/**
 * @module
 * What the card shows only in a later state (`isLater` in `checkout-state.ts`: a payment
 * detected, paid, over- or underpaid, ended, refunded): the status line's words and the notes
 * under a payment (what an overpayment was, why an excess is too small to refund). In the
 * script-tag build this module travels in `payment.js` with its English texts (`enStatus`)
 * and widget.js reads it through `lazy/later.ts`; `laterReady` says when the view may show a
 * later state (here, the ESM build and the tests: always).
 */
import type {
  CheckoutSnapshot,
  PaymentInstructions,
} from "../../packages/contract/src/http-api.ts";
import { isOverpaid } from "../checkout-state.ts";
import { formatCrypto, formatFiat } from "../format.ts";
import type { Translator } from "../i18n/index.ts";

/**
 * What to wait for before a later state may show: null, everything is here.
 *
 * @example
 * laterReady() // null
 */
export function laterReady(): Promise<void> | null {
  return null;
}

/**
 * The status line of a later state (`isLater`), e.g. "Paid — thank you!".
 *
 * @example
 * laterStatus(snapshot({ final: true }), translator("en")) // "Paid — thank you!"
 */
export function laterStatus(s: CheckoutSnapshot, i18n: Translator): string {
  const { t } = i18n;
  // A refunded order is closed: nothing to pay, whatever its last attempt says.
  if (s.orderState === "refunded") return t("statusRefunded");
  // The rest is below the service's minimum: no new attempt can take it (no Try again).
  if (s.underpaid)
    return t("statusRemainderBelowMinimum", {
      due: formatFiat(s.underpaid.amountDue, s.currency, s.fiatDecimalPlaces, i18n.locale),
      minimum: formatFiat(s.underpaid.minimum, s.currency, s.fiatDecimalPlaces, i18n.locale),
    });
  if (s.final)
    return isOverpaid(s)
      ? t("statusOverpaid", {
          extra: formatFiat(s.amountOverpaid, s.currency, s.fiatDecimalPlaces, i18n.locale),
        })
      : t("statusPaid");
  const p = s.attempt.payment;
  switch (s.attempt.status) {
    case "processing":
      return t("statusProcessing");
    case "suspended":
      return t("statusSuspended");
    case "partially_paid":
      // An invoice that expired after a partial payment keeps `partially_paid` (the consumer
      // rules never move it back), so `canRetry` is what says its window closed: say so and
      // what is still due, else the shopper sees only "Received …" beside *Try again*.
      return p
        ? t(s.canRetry ? "statusPartialEnded" : "statusPartial", {
            received: formatCrypto(p.received, p.decimalPlaces, i18n.locale),
            amount: formatCrypto(p.amount, p.decimalPlaces, i18n.locale),
            code: ticker(p.cryptoCurrencyCode),
            due: formatFiat(s.amountDue, s.currency, s.fiatDecimalPlaces, i18n.locale),
          })
        : t("statusProcessing");
    case "expired":
      return t("statusExpired");
    case "failed":
      return t("statusFailed");
    case "cancelled":
      return t("statusCancelled");
    default:
      // Nothing to wait for before a currency is chosen.
      return p ? t("statusWaiting") : t("statusNew");
  }
}

/** The symbol shown beside amounts: `USDT_TRC20` → `USDT` (the network is said elsewhere). */
const ticker = (code: string) => code.split("_")[0] ?? code;

/**
 * Under a payment: the crypto received beyond the order (overpaid), and, when an excess is
 * below the smallest refund, why it is not sent back (else the refund form asks an address).
 * That note shows only where it matters: an overpaid order, or one that ends underpaid
 * (`underpaid`: the rest is below the service's minimum). While the shopper can still pay the
 * rest, what they sent counts toward the order, and a note about refunds would read as a loss.
 * A snapshot stored before `refund` existed (an SSE replay) has none: the form asks, as before.
 *
 * @example
 * <LaterNote snapshot={s} payment={s.attempt.payment} wantsRefund i18n={i18n} />
 */
export function LaterNote(props: {
  snapshot: CheckoutSnapshot;
  payment: PaymentInstructions;
  wantsRefund: boolean;
  i18n: Translator;
}) {
  const { snapshot: s, payment: p, wantsRefund, i18n } = props;
  const { t } = i18n;
  const crypto = (amount: string) => formatCrypto(amount, p.decimalPlaces, i18n.locale);
  return (
    <>
      {isOverpaid(s) ? (
        <p class="muted">
          {t("statusPartial", {
            received: crypto(p.received),
            amount: crypto(p.amount),
            code: ticker(p.cryptoCurrencyCode),
          })}
        </p>
      ) : null}
      {wantsRefund && p.refund && !p.refund.possible && (isOverpaid(s) || !!s.underpaid) ? (
        <p class="muted">
          {t("refundTooSmall", {
            excess: crypto(p.refund.excess),
            minimum: crypto(p.refund.minimum),
            code: ticker(p.cryptoCurrencyCode),
          })}
        </p>
      ) : null}
    </>
  );
}
