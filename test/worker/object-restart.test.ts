/**
 * An order object restarted (deploy, `ctx.abort()`, a limit) while a shopper's call is in
 * flight: the call answers 503 `service_busy` with `Retry-After` (never 500 `internal`, never
 * the abort's reason), and repeating it finds the one invoice the service made.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkoutIdFor } from "../../worker/lib/ids/checkout-id.ts";
import { expectedFault } from "../expected-faults.ts";
import { sleep } from "../support/wait.ts";
import {
  fault,
  ledgerOf,
  openCheckout,
  uniqueSub,
  upstreamInvoice,
  upstreamRequests,
} from "./helpers.ts";

/**
 * Opens a checkout whose create the service makes at once but answers 1.5 s later, and aborts
 * the order object (with `reason`) while that create is in flight: the open's promise.
 */
async function openAbortedMidCreate(label: string, reason: string) {
  const sub = uniqueSub(label);
  const id = await checkoutIdFor("invoice", sub, env.CHECKOUT_SIGNING_SECRET as string);
  const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
  await fault({
    path: "/invoice",
    method: "POST",
    mode: "timeout-after-create",
    delayMs: 1500,
    times: 1,
  });
  const inFlight = openCheckout({ sub, amount: "25.00" });
  // In flight: the service made the invoice and holds its answer (1.5 s). Polled rather than
  // a fixed sleep: a cold isolate's first call also starts the upstream budget's object.
  for (let i = 0; i < 100 && (await upstreamInvoice(`cc-${sub}`)).status !== 200; i += 1)
    await sleep(10);
  await runInDurableObject(stub, (_o, state) => state.abort(expectedFault(reason))).catch(() => {});
  return { sub, inFlight };
}

describe("object restarted mid-call", () => {
  it("an open in flight answers 503 service_busy; opening again adopts the service's invoice", async () => {
    const { sub, inFlight } = await openAbortedMidCreate("restart", "secret-reason-42");

    const first = await inFlight;
    expect(first.status).toBe(503);
    expect(first.body.error?.code).toBe("service_busy");
    expect(JSON.stringify(first.body)).not.toContain("secret-reason-42");

    const again = await openCheckout({ sub, amount: "25.00" });
    expect([200, 201]).toContain(again.status);
    expect(again.body.data.attempt.orderId).toBe(`cc-${sub}`);
    // The worker's attempt is the invoice the service made during the aborted call.
    const upstream = await upstreamInvoice(`cc-${sub}`);
    expect(upstream.status).toBe(200);
    expect(upstream.body.data.id).toBe(await attemptInvoiceId(sub));
  });
});

describe("claims across a restart mid-create", () => {
  it("a token with other terms gets 409 checkout_conflict with no upstream call after the object restarted during the first create", async () => {
    const { sub, inFlight } = await openAbortedMidCreate("restart-claims", "restart");
    expect((await inFlight).status).toBe(503);

    // The service holds an invoice for 25.00 under this order's orderId: 30.00 must not open.
    const before = (await upstreamRequests("/invoice", "POST")).length;
    const other = await openCheckout({ sub, amount: "30.00" });
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe("checkout_conflict");
    expect((await upstreamRequests("/invoice", "POST")).length).toBe(before);

    const same = await openCheckout({ sub, amount: "25.00" });
    expect([200, 201]).toContain(same.status);
    expect(same.body.data.amount).toBe("25.00");
  });
});

async function attemptInvoiceId(sub: string): Promise<unknown> {
  return (await ledgerOf(sub)).attempts[0]?.invoiceId;
}
