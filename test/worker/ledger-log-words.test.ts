/**
 * The ledger's event log is read by merchants (the demo shows it): each line says what happened
 * in their words, not the object's internals ("attempt 1 opened as cc-… (no change: status
 * created after created)").
 */
import { describe, expect, it } from "vitest";
import { deliverAll, ledgerOf, simulate } from "./helpers.ts";
import { lockedCheckout } from "./orders.ts";

describe("ledger event log wording", () => {
  it("a paid order's log reads as a merchant would say it", async () => {
    const { sub, orderId } = await lockedCheckout("49.90", "words");
    expect((await simulate(orderId, "paid")).status).toBe(200);
    await deliverAll(orderId);
    const messages = (await ledgerOf(sub)).log.map((entry) => entry.message);
    expect(messages[0]).toBe(`payment attempt 1 opened (service order ${orderId})`);
    expect(messages).toContain(`shopper chose USDT_TRC20 (service order ${orderId})`);
    expect(messages).toContain(`the service reports ${orderId} paid`);
    for (const message of messages) {
      expect(message).not.toMatch(/no change:|opened as|\bread: |after created|_paid\b/);
    }
  });
});
