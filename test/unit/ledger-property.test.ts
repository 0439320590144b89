import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import { add } from "../../worker/lib/money/decimal.ts";
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
  // The partial webhook is first processed after the service already expired the invoice.
  expiredWithReceived: [state("created", null), state("expired", "0.0003")],
  failedWithReceived: [
    state("created", null),
    state("processing", "0.0006"),
    state("failed", "0.0006"),
  ],
  cancelledAfterPartials: [
    state("created", null),
    state("partially_paid", "0.0003"),
    state("partially_paid", "0.0006"),
    state("cancelled", "0.0006"),
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

  it("applies the partial payment of an invoice already ended when read, and keeps it ended", () => {
    for (const status of ["expired", "failed", "cancelled"] as const) {
      const { balance, fiatSum, cryptoSum } = run([
        state("created", null),
        state(status, "0.0003"),
      ]);
      // 0.0003 / 0.0015 × 49.90 = 9.98: the same value and row as partially_paid then expired.
      expect(balance).toEqual(run(HISTORIES.partialThenExpired!).balance);
      expect(balance.ended).toBe(true);
      expect([fiatSum, cryptoSum]).toEqual(["9.98", "0.0003"]);
    }
  });

  it("never reopens an ended attempt on a stale settled state", () => {
    const { balance } = run([
      state("created", null),
      state("expired", "0.0003"),
      state("partially_paid", "0.0003"),
    ]);
    expect(balance.ended).toBe(true);
    const noMoney = run([state("expired", null), state("processing", "0.0003")]).balance;
    expect(noMoney).toMatchObject({ status: "expired", ended: true });
  });

  it("money that really arrives after the end is still applied, and the attempt stays ended", () => {
    const { balance, fiatSum } = run([state("expired", null), state("partially_paid", "0.0006")]);
    expect(balance).toMatchObject({ status: "partially_paid", ended: true, fiatApplied: "19.96" });
    expect(fiatSum).toBe("19.96");
  });

  /** Ledger fields compared by the properties (numbers normalised). */
  const ledgerOf = (r: ReturnType<typeof run>) => ({
    status: r.balance.status,
    ended: r.balance.ended,
    cryptoApplied: add(r.balance.cryptoApplied, "0"),
    fiatApplied: add(r.balance.fiatApplied, "0"),
    fiatOverpaid: add(r.balance.fiatOverpaid, "0"),
    // Payments add up to what was applied: nothing applied twice.
    cryptoSum: add(r.cryptoSum, "0"),
    fiatSum: add(r.fiatSum, "0"),
  });
  const names = Object.keys(HISTORIES);
  const shuffled = <T>(items: T[], stream: Iterator<number>) => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = (stream.next().value as number) % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };

  it("what the object applies (each fetch after the previous apply) equals applying the final invoice alone (1,200 cases)", () => {
    // The order object serialises fetch+apply per invoice, so it applies states in the order the
    // service produced them, any of them skipped or repeated; the webhook for the final state
    // is followed by a fetch, so the last state applied is the final one.
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.nat(), { maxLength: 12 }),
        (name, picks) => {
          const history = HISTORIES[name]!;
          const last = history.length - 1;
          const indexes = [...picks.map((p) => p % history.length), last].sort((a, b) => a - b);
          const got = run(indexes.map((i) => history[i]!));
          expect(ledgerOf(got)).toEqual(ledgerOf(run([history[last]!])));
          expect(ledgerOf(got)).toEqual(ledgerOf(run(history)));
        },
      ),
      { numRuns: 1200 },
    );
  });

  it("stale facts in any order, with the final state anywhere, still end in the final ledger (1,200 cases)", () => {
    // Defence in depth: states applied out of order (a stale fetch landing late) never change
    // the outcome as long as the final state is among them, wherever it lands.
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.infiniteStream(fc.nat()),
        (name, picks, stream) => {
          const history = HISTORIES[name]!;
          const last = history[history.length - 1]!;
          const deliveries = shuffled(
            [last, ...picks.map((p) => history[p % history.length]!)],
            stream[Symbol.iterator](),
          );
          expect(ledgerOf(run(deliveries))).toEqual(ledgerOf(run([last])));
        },
      ),
      { numRuns: 1200 },
    );
  });

  it("without the final state, any order applies the same money as the service's order (1,200 cases)", () => {
    // Only `processing` ↔ `suspended` may legitimately differ (both directions are allowed and
    // carry no money), so the comparison is of money and `ended`.
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        fc.infiniteStream(fc.nat()),
        (name, picks, stream) => {
          const history = HISTORIES[name]!;
          const indexes = picks.map((p) => p % history.length);
          const inOrder = ledgerOf(run([...indexes].sort((a, b) => a - b).map((i) => history[i]!)));
          const got = ledgerOf(
            run(shuffled(indexes, stream[Symbol.iterator]()).map((i) => history[i]!)),
          );
          const { status: s1, ...money1 } = got;
          const { status: s2, ...money2 } = inOrder;
          expect(money1).toEqual(money2);
          if (s1 !== s2) expect([s1, s2].sort()).toEqual(["processing", "suspended"]);
        },
      ),
      { numRuns: 1200 },
    );
  });
});
