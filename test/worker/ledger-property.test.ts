import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InvoiceStatus } from "../../worker/api/contract.ts";
import { add } from "../../worker/money/decimal.ts";
import {
  type AttemptBalance,
  applyInvoiceState,
  type InvoiceFacts,
} from "../../worker/order/ledger.ts";

const fresh = (fiatAmount: string): AttemptBalance => ({
  status: "created",
  fiatAmount,
  cryptoApplied: "0",
  fiatApplied: "0",
  fiatOverpaid: "0",
  ended: false,
});

const state = (
  status: InvoiceStatus,
  received: string | null,
  expected = "0.00150000",
): InvoiceFacts => ({
  status,
  cryptoAmountExpected: expected,
  cryptoAmountReceived: received,
});

/** Realistic upstream histories, in the order the service produced them. */
const HISTORIES: Record<string, InvoiceFacts[]> = {
  paid: [state("created", null), state("processing", "0.00150000"), state("paid", "0.00150000")],
  partialThenPaid: [
    state("created", null),
    state("processing", "0.00050000"),
    state("partially_paid", "0.00050000"),
    state("partially_paid", "0.00100000"),
    state("paid", "0.00150000"),
  ],
  overpaid: [
    state("created", null),
    state("processing", "0.00200000"),
    state("overpaid", "0.00200000"),
  ],
  suspendedThenPaid: [
    state("created", null),
    state("processing", "0.0015"),
    state("suspended", "0.0015"),
    state("paid", "0.0015"),
  ],
  expired: [state("created", null), state("expired", null)],
  partialThenExpired: [
    state("created", null),
    state("partially_paid", "0.0003"),
    state("expired", "0.0003"),
  ],
};

function run(history: readonly InvoiceFacts[], fiat = "49.90") {
  let balance = fresh(fiat);
  let cryptoSum = "0";
  let fiatSum = "0";
  for (const facts of history) {
    const effect = applyInvoiceState(balance, facts, 2);
    balance = effect.next;
    if (effect.payment) {
      cryptoSum = add(cryptoSum, effect.payment.cryptoAmount);
      fiatSum = add(fiatSum, effect.payment.fiatAmount);
    }
  }
  return { balance, cryptoSum, fiatSum };
}

describe("ledger: the gateway-module table, exactly once", () => {
  it("applies the full amount on paid, exactly", () => {
    const { balance, fiatSum } = run(HISTORIES.paid!);
    expect(balance.status).toBe("paid");
    expect(balance.fiatApplied).toBe("49.9");
    expect(fiatSum).toBe("49.9");
  });

  it("applies the fiat value of a partial payment, rounded down", () => {
    const { balance } = run([state("partially_paid", "0.00050000")]);
    // 0.0005 / 0.0015 × 49.90 = 16.6333… → 16.63
    expect(balance.fiatApplied).toBe("16.63");
    expect(balance.status).toBe("partially_paid");
  });

  it("records the fiat value of an overpayment", () => {
    const { balance } = run(HISTORIES.overpaid!);
    expect(balance.fiatApplied).toBe("49.9");
    // 0.0005 / 0.0015 × 49.90 = 16.63
    expect(balance.fiatOverpaid).toBe("16.63");
  });

  it("logs expired/failed/cancelled without applying anything", () => {
    const { balance, fiatSum } = run(HISTORIES.expired!);
    expect(balance.status).toBe("expired");
    expect(fiatSum).toBe("0");
  });

  it("never lets a late processing undo paid", () => {
    const { balance } = run([
      ...HISTORIES.paid!,
      state("processing", "0.0015"),
      state("created", null),
    ]);
    expect(balance.status).toBe("paid");
  });

  it("keeps partially_paid when the attempt then expires, but marks it ended", () => {
    const { balance } = run(HISTORIES.partialThenExpired!);
    expect(balance.status).toBe("partially_paid");
    expect(balance.ended).toBe(true);
    expect(balance.fiatApplied).toBe("9.98");
  });

  it("any order of duplicated, reordered deliveries ends in the same ledger (1,200 cases)", () => {
    const names = Object.keys(HISTORIES);
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        fc.infiniteStream(fc.nat()),
        (name, picks, shuffle) => {
          const history = HISTORIES[name]!;
          // The natural order once, plus random duplicates, then shuffled.
          const deliveries = [...history, ...picks.map((p) => history[p % history.length]!)];
          const it = shuffle[Symbol.iterator]();
          for (let i = deliveries.length - 1; i > 0; i--) {
            const j = (it.next().value as number) % (i + 1);
            [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
          }
          // The worker refetches the authoritative state on each webhook: the last delivery is
          // always followed by the newest state. Model that by ending with the final state.
          deliveries.push(history[history.length - 1]!);
          const expected = run(history);
          const got = run(deliveries);
          expect(got.balance.fiatApplied).toBe(expected.balance.fiatApplied);
          expect(got.balance.cryptoApplied).toBe(expected.balance.cryptoApplied);
          expect(got.balance.fiatOverpaid).toBe(expected.balance.fiatOverpaid);
          expect(got.balance.status).toBe(expected.balance.status);
          // Payments add up to what was applied: nothing applied twice.
          expect(got.balance.ended).toBe(expected.balance.ended);
          expect(add(got.fiatSum, "0")).toBe(add(got.balance.fiatApplied, "0"));
          expect(add(got.cryptoSum, "0")).toBe(add(got.balance.cryptoApplied, "0"));
        },
      ),
      { numRuns: 1200 },
    );
  });
});
