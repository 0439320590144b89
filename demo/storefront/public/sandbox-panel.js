/**
 * @module
 * What the checkout page's sandbox panel shows for the widget's current snapshot (pure, so
 * `test/node/demo-sandbox-panel.test.ts` checks it): the *Partial amount* hint, whether *Half*
 * applies, and a key whose change empties the amount field. Something is due only while the
 * attempt can still be paid: after *Expire* (or once paid, failed or cancelled) the hint says
 * nothing is due, and an amount typed for another attempt or another remaining is cleared.
 */

/** Attempt statuses after which the attempt takes no more payment. */
const ENDED = new Set(["paid", "overpaid", "expired", "failed", "cancelled"]);

/**
 * The partial-payment row's state for a checkout snapshot (`checkout:status`'s detail).
 *
 * @example
 * partialRow({ attempt: { orderId: "cc-1-2", status: "expired", payment: { cryptoCurrencyCode: "BNB", remaining: "0.5" } } });
 * // { hint: "(BNB, nothing due: the attempt expired)", half: false, key: "cc-1-2 0.5 ended" }
 */
export function partialRow(snapshot) {
  const attempt = snapshot?.attempt;
  const payment = attempt?.payment;
  const ended = ENDED.has(attempt?.status);
  const key = `${attempt?.orderId ?? ""} ${payment?.remaining ?? ""} ${ended ? "ended" : "open"}`;
  if (!payment) return { hint: "(crypto, after a currency is chosen)", half: false, key };
  const code = payment.cryptoCurrencyCode;
  if (ended) {
    const status = attempt.status === "overpaid" ? "paid" : attempt.status;
    return { hint: `(${code}, nothing due: the attempt ${status})`, half: false, key };
  }
  return { hint: `(${code}, ${payment.remaining} due)`, half: true, key };
}
