/**
 * Issue 10, acknowledgement rule: a delivery about a status the service already left
 * (processing → suspended → processing) was answered 503 on every redelivery, because a read of
 * the other status of the same rank never covers a delivery (the fix for sim seed 103988). The
 * envelope's signed `timestamp` now orders deliveries of one upstream object: one sent before a
 * delivery already acknowledged is superseded (200, nothing read or applied). Equal or
 * unusable stamps, and a lagging read for the newest delivery, keep the 503.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DepositSnapshot } from "../../packages/contract/src/http-api.ts";
import { FOLLOWED_MIGRATIONS } from "../../worker/core/converge/followed.ts";
import { migrate } from "../../worker/core/storage/migrations.ts";
import { clearFaultsAfterEach } from "../support/sandbox-faults.ts";
import {
  type Delivery,
  deliver,
  deliveriesFor,
  fault,
  ledgerOf,
  postJson,
  restamped,
  sandbox,
  simulate,
  token,
  uniqueIp,
  uniqueSub,
  upstreamRequests,
  withoutRecord,
  worker,
} from "./helpers.ts";
import { lockedCheckout } from "./orders.ts";

clearFaultsAfterEach();

type Envelope = { event: string; data: { id: string; status: string }; timestamp: string };
const envelope = (d: Delivery) => JSON.parse(d.body) as Envelope;

/** The sandbox stamps in milliseconds: a short pause keeps two steps' stamps apart. */
const nextMillisecond = () => new Promise((r) => setTimeout(r, 5));

/** Runs `steps` on the sandbox's invoice a few ms apart; its last three status deliveries. */
async function movedBackAndForth(orderId: string) {
  for (const action of ["processing", "suspend", "processing"]) {
    expect((await simulate(orderId, action)).status).toBe(200);
    await nextMillisecond();
  }
  const hooks = (await deliveriesFor(orderId)).filter((d) => d.event === "invoice.statusChanged");
  const last = hooks.slice(-3) as [Delivery, Delivery, Delivery];
  expect(last.map((h) => envelope(h).data.status)).toEqual([
    "processing",
    "suspended",
    "processing",
  ]);
  const stamps = last.map((h) => Date.parse(envelope(h).timestamp));
  expect(stamps[0]! < stamps[1]! && stamps[1]! < stamps[2]!, "stamps increase").toBe(true);
  return last;
}

/** Reads of one invoice at the service (other objects' background reads do not count). */
const invoiceReads = async (invoiceId: string) =>
  (await upstreamRequests("/invoice", "GET")).filter((r) => r.query.id === invoiceId).length;

describe("a webhook about a status the service already left (processing ⇄ suspended)", () => {
  it("is acknowledged unread once a newer delivery of the same invoice was acknowledged", async () => {
    const { sub, id, orderId } = await lockedCheckout("49.90", "susp");
    const [, suspended, back] = await movedBackAndForth(orderId);
    const newer = await deliver(back);
    expect(await newer.json(), "the newer delivery").toEqual({ received: true, duplicate: false });
    // A reconciliation read in between rewrites the facts row; the acknowledged time stays.
    const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
    await runInDurableObject(stub, async (_o: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE upstream_objects SET next_read_at = 0");
      await state.storage.setAlarm(Date.now()); // the reconciler reads in production
    });
    await runDurableObjectAlarm(stub);

    const invoiceId = envelope(back).data.id;
    const reads = await invoiceReads(invoiceId);
    const older = await deliver(suspended);
    expect(older.status, "the superseded delivery").toBe(200);
    expect(await older.json()).toEqual({ received: true, duplicate: false, superseded: true });
    expect(await invoiceReads(invoiceId), "nothing read for a superseded delivery").toBe(reads);
    expect((await ledgerOf(sub)).attempts[0]!.status).toBe("processing");
    // Remembered: the service's next try of the same bytes is a duplicate.
    expect(await (await deliver(suspended)).json()).toEqual({ received: true, duplicate: true });
  });

  it("without a whole record, is not superseded by a delivery of the same instant, nor with a stamp that cannot be placed: 503 as before", async () => {
    const { orderId } = await lockedCheckout("49.90", "susp");
    const [, suspended, back] = await movedBackAndForth(orderId);
    expect((await deliver(back)).status).toBe(200);
    const newest = envelope(back).timestamp;
    const ms = Date.parse(newest);
    const variants = [
      newest, // equal: which of the two is newer cannot be told
      String(ms - 1000), // a bare number: seconds or milliseconds?
      new Date(ms - 1000).toISOString().replace("Z", ""), // no zone
      new Date(Date.now() + 3_600_000).toISOString(), // an hour ahead of the worker's clock
      "garbled",
    ];
    for (const stamp of variants) {
      const res = await deliver(await withoutRecord(await restamped(suspended, stamp)));
      // The refetch rule: the read says `processing`, which does not cover `suspended`.
      expect([stamp, res.status]).toEqual([stamp, 503]);
    }
    // The same delivery, stamped one millisecond earlier, is placed and superseded.
    const earlier = await restamped(suspended, new Date(ms - 1).toISOString());
    expect(await (await deliver(earlier)).json()).toMatchObject({ superseded: true });
  });

  it("seed 103988 still holds without a whole record: a lagging read for the newest delivery answers 503, the redelivery applies it", async () => {
    const { sub, orderId } = await lockedCheckout("49.90", "susp");
    expect((await simulate(orderId, "processing")).status).toBe(200);
    const [processing] = (await deliveriesFor(orderId)).filter(
      (d) => d.event === "invoice.statusChanged",
    );
    expect((await deliver(processing!)).status).toBe(200);
    await nextMillisecond();
    expect((await simulate(orderId, "suspend")).status).toBe(200);
    const whole = (await deliveriesFor(orderId)).at(-1)!;
    expect(envelope(whole).data.status).toBe("suspended");
    const suspended = await withoutRecord(whole);

    // Newer than everything acknowledged, and the refetch hits a replica still at `processing`.
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "stale",
      asStatus: "processing",
      scope: orderId,
    });
    expect((await deliver(suspended)).status).toBe(503);
    expect((await ledgerOf(sub)).attempts[0]!.status).toBe("processing");
    expect(await (await deliver(suspended)).json()).toEqual({ received: true, duplicate: false });
    expect((await ledgerOf(sub)).attempts[0]!.status).toBe("suspended");
  });

  it("top-ups take the same path: a deposit's superseded `suspended` is acknowledged unread", async () => {
    const sub = uniqueSub("dsusp");
    const orderId = `cc-${sub}`;
    const t = await token({ sub, mode: "deposit", customerId: "c1" });
    const opened = await postJson(
      "/v1/deposits",
      { token: t, cryptoCurrencyCode: "TRX" },
      { "cf-connecting-ip": uniqueIp() },
    );
    const { data } = (await opened.json()) as { data: DepositSnapshot };
    for (const action of ["processing", "suspend", "processing"]) {
      const res = await sandbox(`/sandbox/deposits/${encodeURIComponent(orderId)}/simulate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ action }),
      });
      expect(res.status).toBe(200);
      await nextMillisecond();
    }
    const hooks = (await deliveriesFor(orderId)).filter((d) => d.event === "deposit.statusChanged");
    expect(hooks.map((h) => envelope(h).data.status)).toEqual([
      "processing",
      "suspended",
      "processing",
    ]);
    const [, suspended, back] = hooks as [Delivery, Delivery, Delivery];
    // Before the newer one is acknowledged, a prompt without a record: the read says
    // `processing`, which does not cover `suspended` → 503.
    expect((await deliver(await withoutRecord(suspended))).status).toBe(503);
    expect((await deliver(back)).status).toBe(200);
    const depositReads = async () =>
      (await upstreamRequests("/deposit", "GET")).filter(
        (r) => r.query.id === envelope(back).data.id,
      ).length;
    const reads = await depositReads();
    const older = await deliver(suspended);
    expect(await older.json()).toEqual({ received: true, duplicate: false, superseded: true });
    expect(await depositReads()).toBe(reads);
    const view = await worker(`/v1/deposits/${data.id}`);
    expect(((await view.json()) as { data: DepositSnapshot }).data.status).toBe("processing");
  });
});

describe("issue 20 item 7: a delivery sent before an acknowledged one, announcing more than is known", () => {
  /** `processing` delivered and acknowledged, then `paid` at the service, stamped before it. */
  async function paidStampedEarly() {
    const { sub, orderId } = await lockedCheckout("49.90", "susp");
    expect((await simulate(orderId, "processing")).status).toBe(200);
    const [processing] = (await deliveriesFor(orderId)).filter(
      (d) => d.event === "invoice.statusChanged",
    );
    expect((await deliver(processing!)).status).toBe(200);
    await nextMillisecond();
    expect((await simulate(orderId, "paid")).status).toBe(200);
    const paid = (await deliveriesFor(orderId)).at(-1)!;
    expect(envelope(paid).data.status).toBe("paid");
    const early = new Date(Date.parse(envelope(processing!).timestamp) - 1).toISOString();
    return { sub, orderId, paid: await restamped(paid, early) };
  }

  it("with its whole invoice: applied at once (not acknowledged unread), paid once", async () => {
    const { sub, paid } = await paidStampedEarly();
    const res = await deliver(paid);
    expect(await res.json()).toEqual({ received: true, duplicate: false });
    const l = await ledgerOf(sub);
    expect([l.state, l.attempts[0]!.status]).toEqual(["paid", "paid"]);
    expect(l.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
  });

  it("without a record: acknowledged only once a read covers it; a lagging read answers 503, unremembered", async () => {
    const { sub, orderId, paid } = await paidStampedEarly();
    const prompt = await withoutRecord(paid);
    await fault({
      path: "/invoice",
      method: "GET",
      mode: "stale",
      asStatus: "processing",
      scope: orderId,
    });
    expect((await deliver(prompt)).status, "the known state does not cover `paid`").toBe(503);
    expect((await ledgerOf(sub)).attempts[0]!.status).toBe("processing");
    expect(await (await deliver(prompt)).json()).toEqual({ received: true, duplicate: false });
    expect((await ledgerOf(sub)).state).toBe("paid");
  });
});

describe("objects followed before deliveries were stamped", () => {
  it("get the acked_at column added (idempotent), keep their facts, and supersede from the next acknowledgement on", async () => {
    const { sub, id, orderId } = await lockedCheckout("49.90", "susp");
    const [, suspended, back] = await movedBackAndForth(orderId);
    const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
    const rows = await runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      sql.exec("ALTER TABLE upstream_objects DROP COLUMN acked_at"); // the table as it was
      sql.exec("DELETE FROM schema_migrations"); // made before migrations were numbered
      migrate(sql, [FOLLOWED_MIGRATIONS]);
      migrate(sql, [FOLLOWED_MIGRATIONS]);
      return sql.exec("SELECT kind, status, acked_at FROM upstream_objects").toArray();
    });
    expect(rows).toEqual([{ kind: "invoice", status: "created", acked_at: null }]);
    expect((await deliver(back)).status).toBe(200);
    expect(await (await deliver(suspended)).json()).toMatchObject({ superseded: true });
    expect((await ledgerOf(sub)).attempts[0]!.status).toBe("processing");
  });
});
