/**
 * @module
 * The DOM events `<crypto-checkout>` dispatches on itself for the host page. All bubble and are
 * composed (they cross the shadow boundary). Types only: `dist/widget.esm.d.ts` repeats them for
 * ESM users, and a type test keeps both in step.
 */
import type { CheckoutSnapshot, DepositSnapshot } from "../packages/contract/src/http-api.ts";

/** `detail` of `checkout:error`: the worker's code (or `network`, `missing_token`) and the shopper's message. */
export interface CheckoutErrorDetail {
  code: string;
  message: string;
  /** For the storefront's developer (also logged to the console): the worker's own message. */
  developerMessage: string;
}

/** Event name → event, e.g. for `addEventListener` typing. */
export interface CheckoutEventMap {
  /** Every new state: first load, each live update, each action's answer. */
  "checkout:status": CustomEvent<CheckoutSnapshot | DepositSnapshot>;
  /** Once, when the order is paid (`final`), or a top-up completed. */
  "checkout:paid": CustomEvent<CheckoutSnapshot | DepositSnapshot>;
  /** The current attempt expired, failed or was cancelled (a retry may follow). */
  "checkout:expired": CustomEvent<CheckoutSnapshot>;
  /** A request failed; the widget shows the message too. */
  "checkout:error": CustomEvent<CheckoutErrorDetail>;
}

/** How views dispatch: the element wraps `detail` in a bubbling, composed `CustomEvent`. */
export type Emit = <K extends keyof CheckoutEventMap>(
  name: K,
  detail: CheckoutEventMap[K]["detail"],
) => void;
