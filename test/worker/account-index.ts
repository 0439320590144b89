/**
 * Helpers of the merchant-operations tests: the account's index object of the test
 * configuration, seeding it directly through its feed, and polling.
 */
import { env } from "cloudflare:workers";
import { accountKey } from "../../worker/core/account/account-key.ts";
import { parseConfig } from "../../worker/core/config/config.ts";
import { accountStub } from "../../worker/core/objects/stubs.ts";
import type { Env } from "../../worker/edge/env.ts";
import type { OrderSummary } from "../../worker/lib/api/merchant-ops.ts";

/** The index the worker under test writes to. */
export function testIndex() {
  const parsed = parseConfig(env as Env);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return accountStub(env as Env, accountKey(parsed.config));
}

/** A summary with every field set; `over` replaces some. */
export function summary(over: Partial<OrderSummary> & { invoiceNumber: string }): OrderSummary {
  return {
    state: "unpaid",
    amount: "10.00",
    currency: "USD",
    amountPaid: "0",
    cryptoCurrencyCode: null,
    cryptoAmountReceived: null,
    lastInvoiceStatus: "created",
    attempts: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    paidAt: null,
    paymentMethod: null,
    x402Payer: null,
    x402Transaction: null,
    ...over,
  };
}

/** Seeds summaries straight into the index, as their orders' feeds would (version 1 each). */
export async function seedOrders(orders: OrderSummary[], version = 1): Promise<void> {
  const entries = orders.map((o) => ({
    key: "order",
    kind: "order" as const,
    version,
    body: JSON.stringify(o),
  }));
  for (let i = 0; i < entries.length; i += 500)
    await testIndex().applyFeed("order:seeded", entries.slice(i, i + 500));
}
