import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { backoffMs, MAX_ATTEMPTS } from "../../worker/core/events/outbox.ts";
import { deliverOutbox } from "../../worker/core/events/outbox-store.ts";
import { eventually } from "../support/wait.ts";
import type { OrderObject } from "../support/worker-entry.ts";
import {
  deliverAll,
  hmacHex,
  inboxAnswers,
  merchant,
  openCheckout,
  postJson,
  sandbox,
  simulate,
  uniqueSub,
} from "./helpers.ts";

interface InboxEntry {
  headers: Record<string, string>;
  body: string;
  /** What the fake merchant answered. */
  status: number;
}

const secret = env.MERCHANT_WEBHOOK_SECRET as string;

/** The merchant's check, written independently of the worker's signer. */
async function verifyMerchantSignature(header: string, body: string, key: string) {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=") as [string, string]));
  return parts.v1 === (await hmacHex(key, `${parts.t}.${body}`));
}

async function inboxFor(invoiceNumber: string) {
  const { body } = await sandbox<{ data: InboxEntry[] }>("/sandbox/merchant-inbox");
  return body.data.filter(
    (e) =>
      (JSON.parse(e.body) as { data: { invoiceNumber: string } }).data.invoiceNumber ===
      invoiceNumber,
  );
}

async function paid(sub: string) {
  const { body } = await openCheckout({ sub, amount: "30.00" });
  await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
  await simulate(`cc-${sub}`, "paid");
  await deliverAll(`cc-${sub}`);
  return env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
}

/**
 * Records the object's own clock at the start of each outbox pass its alarm runs (the `now`
 * that decides which rows are due and their next retry). The pass reads `Date.now()` as its
 * first step; that one read is made to return the value recorded here, because workerd's clock
 * under the test pool can move a millisecond inside one synchronous turn (CI saw 552 vs 553).
 */
async function recordOutboxPasses(stub: DurableObjectStub): Promise<number[]> {
  const passes: number[] = [];
  await runInDurableObject(stub, (o: OrderObject) => {
    const outbox = o.host.outbox;
    const deliver = outbox.deliver.bind(outbox);
    vi.spyOn(outbox, "deliver").mockImplementation((delivery) => {
      const now = Date.now();
      passes.push(now);
      vi.spyOn(Date, "now").mockImplementationOnce(() => now);
      return deliver(delivery);
    });
  });
  return passes;
}

describe("merchant notifications (outbox)", () => {
  it("delivers each effect signed, with an event id; exactly one order.paid", async () => {
    const sub = uniqueSub("ob");
    const stub = await paid(sub);
    // The alarm was set for "now": it may already have run; run it if still pending.
    await runDurableObjectAlarm(stub);
    const inbox = await eventually(async () => {
      const entries = await inboxFor(sub);
      return entries.some((e) => e.body.includes('"order.paid"')) ? entries : null;
    });
    expect(inbox.every((e) => e.status === 200)).toBe(true);
    const types = inbox.map((e) => (JSON.parse(e.body) as { type: string }).type);
    expect(types.filter((t) => t === "order.paid")).toHaveLength(1);
    expect(types).toContain("order.payment_applied");
    for (const entry of inbox) {
      const body = JSON.parse(entry.body) as { id: string };
      expect(entry.headers["x-checkout-event-id"]).toBe(body.id);
      expect(
        await verifyMerchantSignature(entry.headers["x-checkout-signature"]!, entry.body, secret),
      ).toBe(true);
      // A tampered body or the wrong key is detectable.
      expect(
        await verifyMerchantSignature(
          entry.headers["x-checkout-signature"]!,
          entry.body.replace("30.00", "3.00"),
          secret,
        ),
      ).toBe(false);
      expect(
        await verifyMerchantSignature(
          entry.headers["x-checkout-signature"]!,
          entry.body,
          "wrong-key-wrong-key",
        ),
      ).toBe(false);
    }
    const paidNote = JSON.parse(inbox.find((e) => e.body.includes('"order.paid"'))!.body) as {
      data: Record<string, string>;
    };
    expect(paidNote.data.amountPaid).toBe("30.00");
    // Delivered rows are not sent again.
    await runDurableObjectAlarm(stub);
    expect(await inboxFor(sub)).toHaveLength(inbox.length);
  });

  it("retries with backoff until the merchant answers 2xx", async () => {
    const sub = uniqueSub("obr");
    await inboxAnswers(500, 100);
    const stub = await paid(sub);
    await runDurableObjectAlarm(stub);
    type Notes = {
      data: {
        notifications: { attempts: number; deliveredAt: string | null; lastStatus: string }[];
      };
    };
    const pending = await eventually(async () => {
      const l = (await (await merchant(`/v1/orders/${sub}`)).json()) as Notes;
      return l.data.notifications.every((n) => n.attempts >= 1) ? l : null;
    });
    expect(pending.data.notifications.length).toBeGreaterThan(0);
    expect(
      pending.data.notifications.every((n) => n.deliveredAt === null && n.lastStatus === "500"),
    ).toBe(true);
    expect((await inboxFor(sub)).every((e) => e.status === 500)).toBe(true);
    // Not due yet: an immediate run changes nothing.
    const next = await runInDurableObject(stub, (o: OrderObject) =>
      deliverOutbox(o.store.sql, {
        url: env.MERCHANT_WEBHOOK_URL as string,
        secret,
        now: Date.now(),
      }),
    );
    expect(next).toBeGreaterThan(Date.now());
    await inboxAnswers(200, 0);
    // Later (time travel past the backoff): delivered.
    await runInDurableObject(stub, (o: OrderObject) =>
      deliverOutbox(o.store.sql, {
        url: env.MERCHANT_WEBHOOK_URL as string,
        secret,
        now: Date.now() + 60_000,
      }),
    );
    const done = (await (await merchant(`/v1/orders/${sub}`)).json()) as {
      data: { notifications: { attempts: number; deliveredAt: string | null }[] };
    };
    expect(done.data.notifications.every((n) => n.deliveredAt !== null && n.attempts >= 2)).toBe(
      true,
    );
    const accepted = (await inboxFor(sub)).filter((e) => e.status === 200);
    expect(accepted.filter((e) => e.body.includes('"order.paid"'))).toHaveLength(1);
  });

  it("order.payment_applied names the crypto even when no currency was locked here (hosted)", async () => {
    const sub = uniqueSub("obc");
    const { body } = await openCheckout({ sub, amount: "30.00" });
    // No lock through the worker: the service picks the currency, as on its hosted page.
    await simulate(`cc-${sub}`, "paid");
    await deliverAll(`cc-${sub}`);
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const notes = await runInDurableObject(stub, (o: OrderObject) =>
      o.store.sql
        .exec<{ body: string }>("SELECT body FROM outbox WHERE type = 'order.payment_applied'")
        .toArray()
        .map((r) => JSON.parse(r.body) as { data: { cryptoCurrencyCode: string | null } }),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]!.data.cryptoCurrencyCode).toBe("USDT_TRC20");
  });

  it("the alarm reschedules itself after a failed delivery and delivers on its next run", async () => {
    const sub = uniqueSub("oba");
    await inboxAnswers(500, 100);
    const { body } = await openCheckout({ sub, amount: "30.00" });
    await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    // The runtime may run the alarm set for "now" before this test's next line: the retry is
    // asserted against the time the object's own pass decided at, never the test's clock.
    const passes = await recordOutboxPasses(stub);
    await simulate(`cc-${sub}`, "paid");
    await deliverAll(`cc-${sub}`);
    await runDurableObjectAlarm(stub); // false when the alarm set for "now" already ran
    const failedOnce = () =>
      runInDurableObject(stub, async (o: OrderObject, state) => {
        const rows = o.store.sql
          .exec<{ attempts: number; next_at: number; last_attempt_at: string | null }>(
            "SELECT attempts, next_at, last_attempt_at FROM outbox WHERE delivered_at IS NULL",
          )
          .toArray();
        if (rows.length === 0 || rows.some((r) => r.attempts < 1)) return null;
        const alarm = await state.storage.getAlarm();
        return alarm === null ? null : { rows, alarm };
      });
    const { rows, alarm } = await eventually(failedOnce);
    // Each failed row is due again backoffMs(attempts) (2 s for the first retry) after the `now`
    // of the pass that tried it (the last pass begun before its send), and the alarm is set
    // for exactly the earliest such retry: not brought forward, not put off.
    const decidedAt = (row: (typeof rows)[number]) =>
      Math.max(...passes.filter((at) => at <= Date.parse(row.last_attempt_at!)));
    expect(rows.map((r) => r.next_at)).toEqual(
      rows.map((r) => decidedAt(r) + backoffMs(r.attempts)),
    );
    expect(alarm).toBe(Math.min(...rows.map((r) => r.next_at)));
    expect((await inboxFor(sub)).every((e) => e.status === 500)).toBe(true);

    await inboxAnswers(200, 0);
    await new Promise((r) => setTimeout(r, Math.max(0, alarm - Date.now()) + 50));
    // Runs the alarm unless workerd already fired it on schedule; either way that next run
    // delivers everything.
    await runDurableObjectAlarm(stub);
    const accepted = await eventually(async () => {
      const ok = (await inboxFor(sub)).filter((e) => e.status === 200);
      return ok.some((e) => e.body.includes('"order.paid"')) ? ok : null;
    });
    expect(accepted.filter((e) => e.body.includes('"order.paid"'))).toHaveLength(1);
    const undelivered = await runInDurableObject(stub, (o: OrderObject) =>
      o.store.sql.exec("SELECT 1 FROM outbox WHERE delivered_at IS NULL").toArray(),
    );
    expect(undelivered).toHaveLength(0);
    expect(
      await runInDurableObject(stub, (_o: OrderObject, state) => state.storage.getAlarm()),
    ).toBe(null);
  });

  it("signs each notification with the time of its own send", async () => {
    const sub = uniqueSub("obt");
    await inboxAnswers(500, 100);
    const stub = await paid(sub);
    await runDurableObjectAlarm(stub);
    await inboxAnswers(200, 0);
    // A run whose `now` is far from the clock (as an alarm late in a long run would be).
    await runInDurableObject(stub, (o: OrderObject) =>
      deliverOutbox(o.store.sql, {
        url: env.MERCHANT_WEBHOOK_URL as string,
        secret,
        now: Date.now() + 600_000,
      }),
    );
    const accepted = (await inboxFor(sub)).filter((e) => e.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    for (const entry of accepted) {
      const t = Number(/t=(\d+)/.exec(entry.headers["x-checkout-signature"]!)![1]);
      expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(30);
    }
  });

  it("logs a line when it gives up on a notification", async () => {
    const sub = uniqueSub("obg");
    await inboxAnswers(500, 100);
    const stub = await paid(sub);
    const lines: string[] = [];
    const log = { debug: () => {}, warn: (event: string) => void lines.push(event) };
    await runInDurableObject(stub, async (o: OrderObject) => {
      // At rest first: an alarm run the payment started (its inline delivery, answered 500)
      // would end by arming for the rows changed below.
      await o.registrationsSettled();
      // Due now by the object's own clock, as the outbox itself writes a due row.
      const now = Date.now();
      o.store.sql.exec("UPDATE outbox SET attempts = ?, next_at = ?", MAX_ATTEMPTS - 1, now);
      await deliverOutbox(o.store.sql, {
        url: env.MERCHANT_WEBHOOK_URL as string,
        secret,
        now,
        log,
      });
    });
    await inboxAnswers(200, 0);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l === "outbox.gave_up")).toBe(true);
  });
});
