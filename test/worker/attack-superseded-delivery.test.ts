/**
 * An open finding (issue 10, acknowledgement rule), kept as `it.fails`: a delivery about a
 * status the service already left (processing → suspended → processing) is answered 503 on
 * every redelivery.
 */
import { describe, expect, it } from "vitest";
import { type Delivery, deliver, deliveriesFor, simulate } from "./helpers.ts";
import { lockedCheckout } from "./orders.ts";

describe("a webhook about a status the service already left (processing ⇄ suspended)", () => {
  // OPEN (not fixed here: converge/delivery.ts is being reworked on another branch). Since the
  // fix for sim seed 103988, a read of the other status of the same rank never covers a
  // delivery. When the service really moved processing → suspended → processing, the
  // `suspended` delivery reads `processing` on every redelivery and is answered 503 until the
  // invoice leaves rank 1 (paid, expired, …): the ledger is right, but the service redelivers
  // a past state again and again (and may mark the endpoint failing). The envelope's signed
  // `timestamp` is the service's only clock: a delivery older than one already acknowledged for
  // the same invoice is superseded and could be answered 200 without being applied.
  it.fails("is acknowledged once a newer delivery of the same invoice was acknowledged", async () => {
    const { orderId } = await lockedCheckout("49.90", "susp");
    for (const action of ["processing", "suspend", "processing"])
      expect((await simulate(orderId, action)).status).toBe(200);
    const hooks = (await deliveriesFor(orderId)).filter((d) => d.event === "invoice.statusChanged");
    const statuses = hooks.map(
      (h) => (JSON.parse(h.body) as { data: { status: string } }).data.status,
    );
    expect(statuses.slice(-3)).toEqual(["processing", "suspended", "processing"]);
    const [, suspended, back] = hooks.slice(-3) as [Delivery, Delivery, Delivery];
    expect((await deliver(back)).status, "the newer delivery").toBe(200);
    // The older `suspended` delivery, redelivered after the newer one was acknowledged.
    expect((await deliver(suspended)).status, "the superseded delivery").toBe(200);
  });
});
