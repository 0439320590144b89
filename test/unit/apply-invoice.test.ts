/**
 * `applyInvoiceRead` (`worker/order/apply-invoice.ts`): what one invoice read does to an order,
 * without storage: stale reads change nothing, a paying read answers the attempt, the payment
 * and the notifications, a refund hold withholds `order.paid`, and a read that would send a
 * second `order.paid` breaks the run-time invariant.
 */
import { describe, expect, it } from "vitest";
import { InvariantBroken } from "../../worker/core/converge/invariant.ts";
import { applyInvoiceRead, type OrderState } from "../../worker/order/apply-invoice.ts";
import { newAttempt } from "../../worker/order/attempts.ts";
import { NO_TERMS } from "../../worker/order/snapshot.ts";
import { invoice, NOW, ORDER } from "./order-fixtures.ts";

function state(over: Partial<OrderState> = {}): OrderState {
  const attempt = newAttempt(1, invoice("created", null), "100.00", NOW);
  return {
    order: ORDER,
    attempt,
    attempts: [attempt],
    refunds: [],
    terms: NO_TERMS,
    known: { status: "created", received: "0" },
    lock: null,
    currency: null,
    hold: null,
    paidQueued: false,
    now: NOW,
    ...over,
  };
}

const PAID = { type: "invoice.status", message: "the service reports cc-1 paid", quiet: true };

describe("applyInvoiceRead", () => {
  it("a read older than the known facts is stale: quiet, no event; else its out-of-date words", () => {
    const known = { status: "paid", received: "0.001" };
    const older = invoice("processing", "0.001");
    expect(applyInvoiceRead(state({ known }), older, PAID)).toEqual({ kind: "stale", event: null });
    const loud = applyInvoiceRead(state({ known }), older, { ...PAID, quiet: false });
    expect(loud).toEqual({
      kind: "stale",
      event:
        "the service reports cc-1 paid (an out-of-date answer: processing, already paid; nothing changed)",
    });
  });

  it("a quiet read that changes nothing is stale", () => {
    expect(applyInvoiceRead(state(), invoice("created", null), PAID)).toEqual({
      kind: "stale",
      event: null,
    });
  });

  it("a paying read answers the attempt, the payment and order.paid once", () => {
    const read = applyInvoiceRead(state(), invoice("paid", "0.001"), PAID);
    if (read.kind !== "applied") throw new Error("expected applied");
    expect([read.attempt.status, read.attempt.fiatApplied]).toEqual(["paid", "100"]);
    expect(read.payment).toMatchObject({ attempt: 1, cryptoAmount: "0.001", fiatAmount: "100" });
    expect(read.notifications.map((n) => n.type)).toEqual([
      "order.status_changed",
      "order.payment_applied",
      "order.paid",
    ]);
    expect(read.totals.state).toBe("paid");
    expect(read.attempts).toEqual([read.attempt]);
  });

  it("a refund hold of a partial payment withholds order.paid", () => {
    const read = applyInvoiceRead(
      state({ hold: "partially_paid" }),
      invoice("paid", "0.001"),
      PAID,
    );
    if (read.kind !== "applied") throw new Error("expected applied");
    expect(read.notifications.map((n) => n.type)).not.toContain("order.paid");
  });

  it("a read that would queue a second order.paid throws one-order-paid", () => {
    let broken: unknown = null;
    try {
      applyInvoiceRead(state({ paidQueued: true }), invoice("paid", "0.001"), PAID);
    } catch (error) {
      broken = error;
    }
    expect(broken).toBeInstanceOf(InvariantBroken);
    expect((broken as InvariantBroken).invariant).toBe("one-order-paid");
  });
});
