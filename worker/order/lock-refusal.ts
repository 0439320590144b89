/**
 * @module
 * When an attempt's currency can no longer be locked (in-page mode): the 409s a lock gets
 * before anything is asked of the service. The order-level refusals (refunded, paid by another
 * attempt) come first, in the order object; these are the attempt's own.
 */
import type { PaymentMode } from "../core/config/mode-decision.ts";
import { isPositive } from "../lib/money/decimal.ts";
import { failure, type Outcome } from "../lib/outcome/outcome.ts";
import type { AttemptRow } from "./store.ts";

/**
 * Why `attempt` takes no currency lock in `mode`, or null when it may.
 *
 * @example
 * lockRefusal({ ...attempt, status: "processing" }, "in-page"); // 409 attempt_open
 */
export function lockRefusal(
  attempt: Pick<AttemptRow, "status" | "cryptoReceived">,
  mode: PaymentMode,
): Outcome<never> | null {
  if (mode !== "in-page") {
    return failure(
      409,
      "lock_unsupported",
      "This payment service has no in-page currency choice; continue on the hosted payment page.",
    );
  }
  if (attempt.status !== "created") {
    return failure(
      409,
      "attempt_open",
      `The payment is already ${attempt.status.replace("_", " ")}; the currency can no longer change.`,
    );
  }
  // Money already received fixes the currency, whatever the status says.
  if (isPositive(attempt.cryptoReceived)) {
    return failure(
      409,
      "attempt_open",
      "A payment has already been received; the currency can no longer change.",
    );
  }
  return null;
}
