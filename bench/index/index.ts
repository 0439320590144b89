/**
 * @module
 * The bench's order-index worker (see `wrangler.toml` beside it): the real app, whose
 * `GET /v1/orders` is measured, and `POST /bench/seed {from, count}`, which writes orders
 * `from … from+count-1` into the account's index through `applyFeed`, 1,000 per call, exactly
 * as the orders' feeds would (version 1, one order per minute back from 2026-06-01).
 */

import { accountKey } from "../../worker/core/account/account-key.ts";
import { AccountObject } from "../../worker/core/account/account-object.ts";
import { parseConfig } from "../../worker/core/config/config.ts";
import { accountStub } from "../../worker/core/objects/stubs.ts";
import { app } from "../../worker/edge/app.ts";
import type { Env } from "../../worker/edge/env.ts";
import type { OrderSummary } from "../../worker/lib/api/merchant-ops.ts";

export { AccountObject };

const STATES = ["unpaid", "partially_paid", "paid", "refunded"] as const;
const START = Date.UTC(2026, 5, 1);

/** The `i`-th seeded order (deterministic: the bench computes cursors from the same rule). */
export function seededOrder(i: number): OrderSummary {
  const createdAt = new Date(START - i * 60_000).toISOString();
  const state = STATES[i % STATES.length]!;
  return {
    invoiceNumber: `bench-${String(i).padStart(6, "0")}`,
    state,
    amount: "49.90",
    currency: i % 3 === 0 ? "EUR" : "USD",
    amountPaid: state === "unpaid" ? "0" : "49.90",
    cryptoCurrencyCode: "USDT_TRC20",
    cryptoAmountReceived: state === "unpaid" ? "0" : "49.900000",
    lastInvoiceStatus: state === "unpaid" ? "created" : "paid",
    attempts: 1,
    createdAt,
    updatedAt: createdAt,
    paidAt: state === "paid" ? createdAt : null,
    paymentMethod: state === "unpaid" ? null : "invoice",
    x402Payer: null,
    x402Transaction: null,
  };
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/bench/seed") {
      const { from, count } = (await request.json()) as { from: number; count: number };
      const parsed = parseConfig(env);
      if (!parsed.ok) return new Response(parsed.problems.join("; "), { status: 503 });
      const index = accountStub(env, accountKey(parsed.config));
      for (let start = from; start < from + count; start += 1000) {
        const n = Math.min(1000, from + count - start);
        const entries = Array.from({ length: n }, (_, k) => ({
          key: "order",
          kind: "order" as const,
          version: 1,
          body: JSON.stringify(seededOrder(start + k)),
        }));
        await index.applyFeed(`order:bench-${start}`, entries);
      }
      return Response.json({ seeded: count });
    }
    return app.fetch(request, env, ctx);
  },
};
