/**
 * @module
 * What a completed deposit credited: received − deposit network fee − commission.
 *
 * The service's settlement is authoritative and is shown as it is. When it omits the network
 * fee, the fee is derived exactly as `received − commission − net` and the view says
 * `source: "computed"`. `computeSettlement` states the service's rule independently (the
 * commission is `received × depositCommission` rounded **up** to the currency's decimal
 * places; the network fee is capped at what is left, so net is never negative); the worker uses
 * it to cross-check a settlement and to quote what a given deposit would credit.
 */
import type { DepositSettlementView } from "../../packages/contract/src/http-api.ts";
import { cmp, isPositive, min, mul, roundDecimal, sub } from "../lib/money/decimal.ts";
import type { Settlement } from "../service/types.ts";

/** The currency facts the commission rule needs. */
export interface CommissionTerms {
  /** Fraction, e.g. `"0.005"`; tenant-specific, always read from `GET /currencies`. */
  depositCommission: string;
  decimalPlaces: number;
  /** Network fee deducted from each deposit, in the currency; null when none is quoted. */
  depositNetworkFee: string | null;
}

/**
 * The settlement the service's rule gives for `received`.
 *
 * @example
 * computeSettlement("100", { depositCommission: "0.0075", decimalPlaces: 6, depositNetworkFee: "1" });
 * // { received: "100", commission: "0.75", networkFee: "1", net: "98.25" }
 */
export function computeSettlement(received: string, terms: CommissionTerms) {
  const commission = roundDecimal(
    mul(received, terms.depositCommission),
    terms.decimalPlaces,
    "up",
  );
  const afterCommission = sub(received, commission);
  const fee = terms.depositNetworkFee ?? "0";
  const networkFee = isPositive(afterCommission) ? min(fee, afterCommission) : "0";
  return { received, commission, networkFee, net: sub(afterCommission, networkFee) };
}

/**
 * The view of the service's settlement, deriving a missing network fee exactly.
 *
 * @example
 * settlementView({ amountPaid: "100", commissionAmount: "0.75", depositNetworkFeeAmount: "1", netAmount: "98.25", … });
 * // { received: "100", networkFee: "1", commission: "0.75", net: "98.25", source: "service" }
 */
export function settlementView(s: Settlement): DepositSettlementView {
  const fromService = s.depositNetworkFeeAmount !== null;
  const networkFee =
    s.depositNetworkFeeAmount ?? sub(sub(s.amountPaid, s.commissionAmount), s.netAmount);
  return {
    received: s.amountPaid,
    networkFee,
    commission: s.commissionAmount,
    net: s.netAmount,
    source: fromService ? "service" : "computed",
  };
}

/**
 * True when a settlement is internally consistent (net = received − fee − commission) and
 * matches the commission rule for `terms`; a false result is logged, never "corrected".
 *
 * @example
 * settlementAgrees(view, terms); // true for the service's own numbers
 */
export function settlementAgrees(view: DepositSettlementView, terms: CommissionTerms): boolean {
  const identity = cmp(sub(sub(view.received, view.networkFee), view.commission), view.net) === 0;
  const expected = computeSettlement(view.received, terms);
  return identity && cmp(expected.commission, view.commission) === 0;
}
