/**
 * @module fault-scope
 * Which order a request is about, so a fault can be scoped to one order (its attempts,
 * refunds and payouts: `orderId` equal to the scope or starting with `scope-`). Lets many
 * clients' tests share one sandbox, each faulting only its own calls.
 *
 * The orderId comes from the query (`orderId`, or `id` of an invoice, deposit or withdrawal)
 * or the JSON body (`orderId`, an invoice `id` as in the currency lock, or a `quoteId`).
 */
import type { Context } from "hono";
import type { SandboxState } from "./state.ts";

/**
 * True when `orderId` belongs to the order `scope`.
 * @example
 * inScope("cc-1-2", "cc-1"); // true
 */
export function inScope(orderId: string | null, scope: string): boolean {
  return orderId !== null && (orderId === scope || orderId.startsWith(`${scope}-`));
}

function byId(state: SandboxState, id: string | null | undefined): string | null {
  if (!id) return null;
  return (
    state.invoices.get(id)?.orderId ??
    state.deposits.get(id)?.orderId ??
    state.withdrawals.get(id)?.orderId ??
    state.quotes.get(id)?.orderId ??
    null
  );
}

/**
 * The orderId a request is about, or null when it names none.
 * @example
 * await requestOrderId(state, c); // "cc-1001-2"
 */
export async function requestOrderId(state: SandboxState, c: Context): Promise<string | null> {
  const url = new URL(c.req.url);
  // An x402 call is about a payment, not an order (and its body is read under its own bound).
  if (url.pathname.startsWith("/x402/")) return null;
  const q = url.searchParams;
  const fromQuery = q.get("orderId") ?? byId(state, q.get("id"));
  if (fromQuery || c.req.method === "GET") return fromQuery;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await c.req.raw.clone().text()) as Record<string, unknown>;
  } catch {
    return null;
  }
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  return str(body.orderId) ?? byId(state, str(body.id)) ?? byId(state, str(body.quoteId));
}
