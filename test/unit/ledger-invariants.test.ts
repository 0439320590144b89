import { describe, expect, it } from "vitest";
import { InvariantBroken } from "../../worker/core/converge/invariant.ts";
import { type AttemptBalance, applyInvoiceState } from "../../worker/order/ledger.ts";
import { assertLedgerStep, assertOnePaid } from "../../worker/order/ledger-invariants.ts";

const balance = (over: Partial<AttemptBalance> = {}): AttemptBalance => ({
  status: "partially_paid",
  fiatAmount: "100.00",
  cryptoApplied: "0.5",
  fiatApplied: "50.00",
  fiatOverpaid: "0",
  ended: false,
  ...over,
});

/** The invariant a call broke, or null when it passed. */
function broken(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(InvariantBroken);
    expect((error as Error).message).toMatch(/^invariant broken: /);
    return (error as InvariantBroken).invariant;
  }
}

describe("ledger invariants (asserted at run time)", () => {
  it("accepts every step the ledger itself makes, duplicates and stale reads included", () => {
    let current = balance({ status: "created", cryptoApplied: "0", fiatApplied: "0.00" });
    const reads = [
      { status: "partially_paid", received: "0.5" },
      { status: "partially_paid", received: "0.5" },
      { status: "processing", received: "0.2" },
      { status: "paid", received: "1" },
      { status: "paid", received: "1" },
    ] as const;
    for (const read of reads) {
      const effect = applyInvoiceState(
        current,
        { status: read.status, cryptoAmountExpected: "1", cryptoAmountReceived: read.received },
        2,
      );
      expect(broken(() => assertLedgerStep(current, effect))).toBeNull();
      current = effect.next;
    }
    expect(current.fiatApplied).toBe("100");
  });

  it("throws applied-money-never-decreases when applied fiat or crypto goes down", () => {
    const before = balance();
    const fiatDown = { changed: true, next: { ...before, fiatApplied: "40.00" }, payment: null };
    expect(broken(() => assertLedgerStep(before, fiatDown))).toBe("applied-money-never-decreases");
    const cryptoDown = { changed: true, next: { ...before, cryptoApplied: "0.4" }, payment: null };
    expect(broken(() => assertLedgerStep(before, cryptoDown))).toBe(
      "applied-money-never-decreases",
    );
  });

  it("throws applied-money-never-decreases when the payment is not exactly what was applied", () => {
    const before = balance();
    const next = { ...before, cryptoApplied: "0.6", fiatApplied: "60.00" };
    const wrong = { changed: true, next, payment: { cryptoAmount: "0.1", fiatAmount: "20.00" } };
    expect(broken(() => assertLedgerStep(before, wrong))).toBe("applied-money-never-decreases");
    const silent = { changed: true, next, payment: null };
    expect(broken(() => assertLedgerStep(before, silent))).toBe("applied-money-never-decreases");
    const right = { changed: true, next, payment: { cryptoAmount: "0.1", fiatAmount: "10.00" } };
    expect(broken(() => assertLedgerStep(before, right))).toBeNull();
  });

  it("throws applied-within-amount when an attempt applies more than its amount", () => {
    const before = balance();
    const next = { ...before, cryptoApplied: "1.2", fiatApplied: "100.01" };
    const over = { changed: true, next, payment: { cryptoAmount: "0.7", fiatAmount: "50.01" } };
    expect(broken(() => assertLedgerStep(before, over))).toBe("applied-within-amount");
  });

  it("throws one-order-paid on a second order.paid, and on two in one step", () => {
    expect(broken(() => assertOnePaid(false, ["order.status_changed", "order.paid"]))).toBeNull();
    expect(broken(() => assertOnePaid(true, ["order.payment_applied"]))).toBeNull();
    expect(broken(() => assertOnePaid(true, ["order.paid"]))).toBe("one-order-paid");
    expect(broken(() => assertOnePaid(false, ["order.paid", "order.paid"]))).toBe("one-order-paid");
  });
});
