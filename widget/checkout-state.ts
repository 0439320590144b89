/**
 * @module
 * The checkout view's state, as a reducer over the worker's snapshots, and the step the
 * shopper is at, derived from it. Pure: no rendering, no requests, no events (the view emits
 * those when the reducer accepts a snapshot, see `checkout.tsx`).
 *
 * The snapshot decides almost everything; the rest is what only the browser knows: an error to
 * show, a request in flight, the worker refusing an in-page lock (`lock_unsupported`: the
 * hosted page from then on, whatever the snapshot's mode says), the shopper asking to change
 * currency, currencies refused for this order, whether the live connection is up, the
 * currency list. Steps (`stepOf`):
 *
 * | step           | when                                                     | shows                         |
 * |----------------|----------------------------------------------------------|-------------------------------|
 * | `loading`      | no snapshot yet                                          | "Loading…"                    |
 * | `unavailable`  | no snapshot, an error                                    | the error (Retry if transient)|
 * | `picker`       | in-page, `created`, no currency locked (or changing it)  | the currency picker           |
 * | `instructions` | in-page, a currency locked and the attempt takes money   | amount, address, QR           |
 * | `hosted`       | the service's payment page is the way to pay             | its link (+ the payer's choice)|
 * | `confirming`   | a payment was detected (`processing`, `suspended`), or a wallet payment (x402) is settling | the status only |
 * | `retry`        | the attempt ended and a new one may be opened            | *Try again*                   |
 * | `closed`       | paid, refunded, or ended with nothing left to pay here   | the status (and the way back) |
 *
 * Invariant: instructions show only while the attempt takes money (`created`,
 * `partially_paid`): once a payment is detected, "send exactly X" again would invite a second
 * payment.
 */
import type { CheckoutSnapshot, CryptoCurrency } from "../packages/contract/src/http-api.ts";

/** What the checkout view holds. */
export interface CheckoutState {
  /** The newest snapshot shown (see `snapshots.ts` for which one that is). */
  snapshot: CheckoutSnapshot | null;
  /** The code of the failure shown, if any. */
  error: string | null;
  /** A shopper's action is in flight (its buttons are disabled). */
  busy: boolean;
  /** The worker refused an in-page lock: the hosted page from now on. */
  hostedOnly: boolean;
  /** The shopper asked to change the locked currency. */
  choosing: boolean;
  /** Currencies refused for this order: code → the refusal's code (shown on the button). */
  off: Record<string, string>;
  /** The live connection is down. */
  down: boolean;
  /** The live currency list; null until it came (an empty list if it failed). */
  currencies: CryptoCurrency[] | null;
  /** Bumped by "Retry": the checkout is opened again. */
  opened: number;
  /**
   * The last new state the screen reader was told of: its status text is rendered in the live
   * region with the translator of the moment, so a locale switch speaks the new language too.
   */
  announce: CheckoutSnapshot | null;
}

/**
 * What can happen to it. `busy`, `hosted`, `choose` and `currencies` set the fields they carry
 * and nothing else; `link` sets `down`, and up (the worker answered the live link) also clears a
 * `network` error ("cannot reach" no longer holds). Any other error is the worker's answer (a
 * refusal, a token expired) and still holds: it stays.
 */
export type CheckoutAction =
  | { type: "snapshot"; snapshot: CheckoutSnapshot; announce?: boolean }
  | { type: "failed"; error: string | null; picked?: string }
  | { type: "busy"; busy: boolean }
  | { type: "hosted"; hostedOnly: true }
  | { type: "choose"; choosing: boolean }
  | { type: "link"; down: boolean }
  | { type: "currencies"; currencies: CryptoCurrency[] }
  | { type: "reopen" };

/** The shopper's step (see the module doc). */
export type Step =
  | "loading"
  | "unavailable"
  | "picker"
  | "instructions"
  | "hosted"
  | "confirming"
  | "retry"
  | "closed";

/** Attempt statuses that end an attempt without payment. */
export const ENDED = new Set(["expired", "failed", "cancelled"]);
/** Lock failures that rule a currency out for this order (shown on its button). */
const RULED_OUT = /^(currency_unavailable|amount_below_minimum)$/;

/** Fiat strings like "0.00": any non-zero digit means an overpayment. */
export const isOverpaid = (s: CheckoutSnapshot) => /[1-9]/.test(s.amountOverpaid);

/**
 * Whether a payment from the shopper's wallet (x402) is on its way: sent, broadcast, or its
 * outcome being looked up. `failed` is not: nothing moved, the order stays payable.
 *
 * @example
 * x402Pending({ ...s, x402Payment: { ...p, status: "submitted" } }) // true
 */
export const x402Pending = (s: CheckoutSnapshot) =>
  /^(settling|submitted|unknown)$/.test(s.x402Payment?.status ?? "");

/**
 * The state before the first answer (`missing_token` at once without a token).
 *
 * @example
 * useReducer(checkoutReducer, token, initialState)
 */
export function initialState(token: string | null): CheckoutState {
  return {
    snapshot: null,
    error: token ? null : "missing_token",
    busy: false,
    hostedOnly: false,
    choosing: false,
    off: {},
    down: false,
    currencies: null,
    opened: 0,
    announce: null,
  };
}

/**
 * The next state. A `snapshot` action carries one the view already accepted (it clears the
 * error shown); `failed` with `picked` rules that currency out when the refusal says so.
 *
 * @example
 * checkoutReducer(state, { type: "failed", error: "currency_unavailable", picked: "BTC" }).off
 * // { BTC: "currency_unavailable" }
 */
export function checkoutReducer(state: CheckoutState, action: CheckoutAction): CheckoutState {
  switch (action.type) {
    case "snapshot":
      return {
        ...state,
        snapshot: action.snapshot,
        error: null,
        announce: action.announce ? action.snapshot : state.announce,
      };
    case "failed": {
      const { error, picked } = action;
      const off =
        picked && error && RULED_OUT.test(error) ? { ...state.off, [picked]: error } : state.off;
      return { ...state, error, off };
    }
    case "link": {
      const { down } = action;
      return { ...state, down, error: down || state.error !== "network" ? state.error : null };
    }
    case "reopen":
      return { ...state, opened: state.opened + 1 };
    default: {
      const { type: _, ...field } = action;
      return { ...state, ...field };
    }
  }
}

/**
 * Where the shopper is (see the module doc's table).
 *
 * @example
 * stepOf(initialState("t")) // "loading"
 */
export function stepOf(state: CheckoutState): Step {
  const s = state.snapshot;
  if (!s) return state.error ? "unavailable" : "loading";
  const status = s.attempt.status;
  if (s.canRetry) return "retry";
  if (s.final || s.orderState === "refunded" || ENDED.has(status)) return "closed";
  // A wallet payment on its way: no other way to pay shows meanwhile (nobody pays twice).
  if (x402Pending(s)) return "confirming";
  if (s.mode !== "in-page" || state.hostedOnly) return "hosted";
  if (status === "created" && (!s.attempt.payment || state.choosing)) return "picker";
  return takesMoney(s) && s.attempt.payment && !state.choosing ? "instructions" : "confirming";
}

/**
 * Whether the payment instructions show: in-page at `instructions`, and in hosted mode once
 * the payer chose a currency on the service's page.
 *
 * @example
 * showsInstructions(state, stepOf(state))
 */
export function showsInstructions(state: CheckoutState, step: Step): boolean {
  const s = state.snapshot;
  return (
    step === "instructions" ||
    (step === "hosted" && !!s?.attempt.payment && !state.choosing && takesMoney(s))
  );
}

/**
 * Whether the card for `s` is past a fresh attempt with nothing paid (`statusNew` at the
 * picker, `statusWaiting` once a currency is locked): a payment detected, paid, over- or
 * underpaid, ended or refunded. Those states' texts live in `views/later.tsx`.
 *
 * @example
 * isLater({ ...s, final: true }) // true
 */
export const isLater = (s: CheckoutSnapshot) =>
  s.final || s.orderState !== "unpaid" || s.attempt.status !== "created";

const takesMoney = (s: CheckoutSnapshot) =>
  s.attempt.status === "created" || s.attempt.status === "partially_paid";
