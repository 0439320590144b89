/**
 * The pure decisions of the order's steps: whether an open may reuse a checkout
 * (`openConflict`), what a currency lock does before any call (`lockPlan`), and the lock fact
 * a lock's answer leaves (`lockFactAfter`).
 */
import { describe, expect, it } from "vitest";
import type { CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { newAttempt } from "../../worker/order/attempts.ts";
import { lockFactAfter, lockPlan } from "../../worker/order/lock-currency.ts";
import { openConflict } from "../../worker/order/open-order.ts";
import type { Invoice } from "../../worker/service/client.ts";
import { invoice, NOW } from "./order-fixtures.ts";

const BTC = { code: "BTC" } as CryptoCurrency;
const open = { invoiceNumber: "1001", amount: "10", currency: "EUR" };

describe("openConflict", () => {
  it("lets an open reuse the checkout when nothing is claimed or the same terms are", () => {
    expect(openConflict(undefined, open)).toBeNull();
    // Amounts compare as decimals: 10.00 is 10.
    expect(openConflict({ amount: "10.00", currency: "EUR" }, open)).toBeNull();
  });

  it.each([
    [{ amount: "11", currency: "EUR" }, "another amount"],
    [{ amount: "10", currency: "USD" }, "another currency"],
  ])("answers 409 checkout_conflict for %o (%s), naming the claimed terms", (claimed) => {
    const refused = openConflict(claimed, open);
    expect(refused).toMatchObject({ ok: false, status: 409, code: "checkout_conflict" });
    expect(refused && !refused.ok && refused.message).toContain(
      `${claimed.amount} ${claimed.currency}`,
    );
  });
});

describe("lockPlan", () => {
  const fresh = newAttempt(1, invoice("created", null), "10", NOW);
  const locked = { ...fresh, currency: BTC, address: "bc1q", cryptoExpected: "0.001" };
  const inPage = { paid: false, mode: "in-page" as const, unconfirmed: false };

  it("calls the service for a created attempt with another or no currency", () => {
    expect(lockPlan(fresh, inPage, BTC)).toEqual({ kind: "call" });
    expect(lockPlan(locked, inPage, { code: "ETH" })).toEqual({ kind: "call" });
  });

  it("calls nothing for the currency already locked and confirmed", () => {
    expect(lockPlan(locked, inPage, BTC)).toEqual({ kind: "unchanged" });
  });

  it("asks again while the last lock of the attempt is unconfirmed", () => {
    expect(lockPlan(locked, { ...inPage, unconfirmed: true }, BTC)).toEqual({ kind: "call" });
  });

  it("refuses an order already paid with 409 order_paid, before the attempt's own rules", () => {
    const plan = lockPlan({ ...fresh, status: "expired" }, { ...inPage, paid: true }, BTC);
    expect(plan).toMatchObject({ kind: "refused", outcome: { status: 409, code: "order_paid" } });
  });

  it("refuses in hosted mode and for an attempt no longer created (lock-refusal.ts)", () => {
    expect(lockPlan(fresh, { ...inPage, mode: "hosted" }, BTC)).toMatchObject({
      kind: "refused",
      outcome: { code: "lock_unsupported" },
    });
    expect(lockPlan({ ...fresh, status: "processing" }, inPage, BTC)).toMatchObject({
      kind: "refused",
      outcome: { code: "attempt_open" },
    });
  });
});

describe("lockFactAfter", () => {
  const answer = (code: string | null) =>
    ({ ...invoice("created", null), cryptoCurrencyCode: code }) as Invoice;
  const before = { currency: BTC, cryptoExpected: "0.001", address: "bc1q" };

  it("records the answered terms as newer than the attempt's and the previous lock's", () => {
    const previous = { terms: "LTC|1|ltc1", replaced: ["DOGE|5|D1"] };
    expect(lockFactAfter(previous, before, answer("ETH"))).toEqual({
      terms: "ETH|0.001|tb1q-addr",
      replaced: ["DOGE|5|D1", "LTC|1|ltc1", "BTC|0.001|bc1q"],
    });
  });

  it("keeps nothing when the answer shows no currency", () => {
    expect(lockFactAfter(null, before, answer(null))).toBeNull();
  });
});
