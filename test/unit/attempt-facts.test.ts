/**
 * `withInvoiceFacts`: facts of an attempt are monotonic, so a stale invoice read (one that
 * lands after a newer one was applied) never replaces them.
 */
import { describe, expect, it } from "vitest";
import type { InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import { newAttempt, withInvoiceFacts } from "../../worker/order/attempts.ts";
import type { AttemptRow } from "../../worker/order/store.ts";
import type { Invoice } from "../../worker/service/client.ts";

const NOW = "2026-01-01T00:00:00.000Z";

function invoice(status: InvoiceStatus, received: string | null, extra: Partial<Invoice> = {}) {
  return {
    id: "inv_1",
    orderId: "cc-1",
    status,
    cryptoAmountExpected: "100",
    cryptoAmountReceived: received,
    address: "T-addr",
    settlement: received ? { amountPaid: received } : null,
    expiresAt: `exp-${status}-${received}`,
    paymentPageUrl: "https://pay/1",
    ...extra,
  } as Invoice;
}

const applied = (row: AttemptRow, status: InvoiceStatus): AttemptRow => ({ ...row, status });

describe("attempt facts are monotonic", () => {
  const start = newAttempt(1, invoice("created", null), "100.00", NOW);

  it("a stale partially_paid read after paid keeps the paid facts", () => {
    const paid = applied(withInvoiceFacts(start, invoice("paid", "100"), null, NOW), "paid");
    const stale = withInvoiceFacts(paid, invoice("partially_paid", "40"), null, NOW);
    expect(stale.cryptoReceived).toBe("100");
    expect(stale.settlement).toEqual({ amountPaid: "100" });
    expect(stale.expiresAt).toBe("exp-paid-100");
  });

  it("a stale processing read after expired keeps the expired facts", () => {
    const expired = applied(
      withInvoiceFacts(start, invoice("expired", null), null, NOW),
      "expired",
    );
    const stale = withInvoiceFacts(expired, invoice("processing", null), null, NOW);
    expect(stale.expiresAt).toBe("exp-expired-null");
  });

  it("a newer read replaces the facts; received never decreases", () => {
    const partial = applied(
      withInvoiceFacts(start, invoice("partially_paid", "40"), null, NOW),
      "partially_paid",
    );
    expect(withInvoiceFacts(partial, invoice("paid", "100"), null, NOW)).toMatchObject({
      cryptoReceived: "100",
      settlement: { amountPaid: "100" },
      expiresAt: "exp-paid-100",
    });
    expect(withInvoiceFacts(partial, invoice("expired", "40"), null, NOW).expiresAt).toBe(
      "exp-expired-40",
    );
    expect(withInvoiceFacts(partial, invoice("paid", "10"), null, NOW).cryptoReceived).toBe("40");
  });
});
