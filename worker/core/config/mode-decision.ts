/**
 * @module
 * The payment mode and a decision of it, as plain data: what `PaymentModeObject` keeps and
 * answers, what an order stores when it opens, and what `npm run doctor` shows. No imports, so
 * the bindings (`env.ts`) and every object's RPC face can name it without a cycle.
 */

/** `in-page`: currency lock + address in the widget; `hosted`: the service's payment page. */
export type PaymentMode = "in-page" | "hosted";

/** A mode with the reason it is in force. */
export interface ModeDecision {
  mode: PaymentMode;
  /** In plain words, for `npm run doctor` and `GET /v1/doctor`. */
  reason: string;
  /** True when the decision is kept (a forced setting or the service's own answer). */
  settled: boolean;
  /**
   * When the service gave the answer (epoch ms); a kept decision is asked again
   * `MODE_RECHECK_MS` after it. Absent on forced decisions and on records kept before.
   */
  decidedAt?: number;
}

/** How long a kept decision from the service holds before the service is asked again: 1 h. */
export const MODE_RECHECK_MS = 60 * 60_000;

/** How long the record waits before asking again after a question got no usable answer: 1 min. */
export const MODE_RETRY_MS = 60_000;
