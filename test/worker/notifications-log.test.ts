/**
 * The notification log: `GET /v1/notifications`, `POST /v1/notifications/:id/redeliver` and
 * `POST /v1/notifications/test`. A notification that used up its tries is kept `failed`,
 * counted by the doctor and can be redelivered; test events are signed with
 * `MERCHANT_WEBHOOK_SECRET` (or `MERCHANT_API_TOKEN` in a deployment without one).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { AccountObject } from "../../worker/core/account/account-object.ts";
import { TEST_SENDS, TEST_SENDS_PER_MINUTE } from "../../worker/core/account/test-throttle.ts";
import { MAX_ATTEMPTS } from "../../worker/core/events/outbox.ts";
import { backfillFeed } from "../../worker/core/events/outbox-store.ts";
import { throttleKey } from "../../worker/core/events/throttle.ts";
import { app } from "../../worker/edge/app.ts";
import type { DoctorReport } from "../../worker/edge/doctor/doctor-report.ts";
import type { Env } from "../../worker/edge/env.ts";
import { NOTIFICATION_TYPES, type NotificationView } from "../../worker/lib/api/merchant-ops.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { eventually } from "../support/wait.ts";
import { testIndex } from "./account-index.ts";
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
import { checkAnswer } from "./openapi-conformance.ts";

type Page = { data: NotificationView[]; nextCursor: string | null };
interface InboxEntry {
  headers: Record<string, string>;
  body: string;
  status: number;
}

/** Makes the fake merchant answer `status` to the next `times` deliveries (0: always 200). */

afterEach(() => inboxAnswers(200, 0));

async function inbox(): Promise<InboxEntry[]> {
  return (await sandbox<{ data: InboxEntry[] }>("/sandbox/merchant-inbox")).body.data;
}

/** The merchant's check, written independently of the worker's signer. */
async function signedWith(entry: InboxEntry, key: string): Promise<boolean> {
  const parts = Object.fromEntries(
    entry.headers["x-checkout-signature"]!.split(",").map((p) => p.split("=") as [string, string]),
  );
  return parts.v1 === (await hmacHex(key, `${parts.t}.${entry.body}`));
}

async function list(query: string): Promise<Page> {
  const res = await merchant(`/v1/notifications?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

async function paidOrder(sub: string) {
  const { body } = await openCheckout({ sub, amount: "30.00" });
  await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
  await simulate(`cc-${sub}`, "paid");
  await deliverAll(`cc-${sub}`);
  return env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
}

const post = (path: string, body?: string) =>
  merchant(path, { method: "POST", ...(body === undefined ? {} : { body }) });

describe("GET /v1/notifications", () => {
  it("lists an order's notifications across its outbox, delivered, newest first", async () => {
    const sub = uniqueSub("nl");
    const stub = await paidOrder(sub);
    await runDurableObjectAlarm(stub);
    const page = await eventually(async () => {
      const p = await list(`invoiceNumber=${sub}`);
      return p.data.length > 0 && p.data.every((n) => n.status === "delivered") ? p : null;
    });
    const types = page.data.map((n) => n.type);
    expect(types).toContain("order.paid");
    expect(types).toContain("order.payment_applied");
    for (const n of page.data) {
      expect(n).toMatchObject({
        invoiceNumber: sub,
        attempts: 1,
        lastError: null,
        nextAttemptAt: null,
      });
      expect(n.deliveredAt).not.toBeNull();
      expect(n.id).toMatch(/^evt_/);
    }
    const created = page.data.map((n) => n.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it("pages newest first with a cursor; a newer version of a row replaces it, an older one does not", async () => {
    const invoiceNumber = uniqueSub("nc");
    const view = (i: number, status: NotificationView["status"]): NotificationView => ({
      id: `evt_${crypto.randomUUID()}`,
      type: "order.status_changed",
      invoiceNumber,
      status,
      attempts: 1,
      lastAttemptAt: null,
      lastError: null,
      nextAttemptAt: null,
      createdAt: `2026-03-01T00:00:0${i}.000Z`,
      deliveredAt: null,
    });
    const feed = (v: NotificationView, version: number) => ({
      key: v.id,
      kind: "notification" as const,
      version,
      body: JSON.stringify(v),
    });
    const views = [1, 2, 3, 4, 5].map((i) => view(i, "pending"));
    await testIndex().applyFeed(
      "order:seeded",
      views.map((v) => feed(v, 2)),
    );
    await testIndex().applyFeed("order:seeded", [feed({ ...views[0]!, status: "failed" }, 3)]);
    await testIndex().applyFeed("order:seeded", [feed({ ...views[1]!, status: "failed" }, 1)]);
    const first = await list(`invoiceNumber=${invoiceNumber}&limit=2`);
    const second = await list(`invoiceNumber=${invoiceNumber}&limit=2&cursor=${first.nextCursor}`);
    const third = await list(`invoiceNumber=${invoiceNumber}&limit=2&cursor=${second.nextCursor}`);
    const ids = [...first.data, ...second.data, ...third.data].map((n) => n.id);
    expect(ids).toEqual([...views].reverse().map((v) => v.id));
    expect(third.nextCursor).toBeNull();
    const failed = await list(`invoiceNumber=${invoiceNumber}&status=failed`);
    expect(failed.data.map((n) => n.id)).toEqual([views[0]!.id]);
  });

  it.each([
    ["status=lost", "status must be pending, delivered or failed"],
    ["limit=0", "limit must be a whole number from 1 to 100"],
    ["cursor=Zm9v", "cursor is not a cursor from nextCursor"],
    ["invoiceNumber=a%20b", "invoiceNumber must be 1-64 characters of"],
    ["type=order.paid", "Unknown query parameter: type"],
    ["status=pending&status=failed", "Repeated query parameter: status."],
  ])("?%s → 400 validation_failed naming the parameter", async (query, message) => {
    const res = await merchant(`/v1/notifications?${query}`);
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("validation_failed");
    expect(error.message).toContain(message);
  });
});

describe("a notification that used up its tries", () => {
  it("is kept as failed, counted by the doctor, and redelivered on request", async () => {
    const sub = uniqueSub("nf");
    await inboxAnswers(500, 1000);
    const stub = await paidOrder(sub);
    // The first tries (the alarm set for "now" runs them on its own) are over first…
    await runDurableObjectAlarm(stub);
    await eventually(() =>
      runInDurableObject(stub, (o: OrderObject) =>
        o.store.sql.exec("SELECT 1 FROM outbox WHERE attempts = 0").toArray().length === 0
          ? true
          : null,
      ),
    );
    // …then its last try is due: every earlier one failed.
    await runInDurableObject(stub, (o: OrderObject) => {
      o.store.sql.exec("UPDATE outbox SET attempts = ?, next_at = ?", MAX_ATTEMPTS - 1, Date.now());
    });
    await runDurableObjectAlarm(stub);
    const failed = await eventually(async () => {
      const p = await list(`status=failed&invoiceNumber=${sub}`);
      return p.data.some((n) => n.type === "order.paid") ? p.data : null;
    });
    const paidNote = failed.find((n) => n.type === "order.paid")!;
    expect(paidNote).toMatchObject({
      status: "failed",
      attempts: MAX_ATTEMPTS,
      lastError: "HTTP 500",
      nextAttemptAt: null,
      deliveredAt: null,
    });
    // Still in the order's own outbox (nothing dropped), and no longer retried by the alarm.
    const rows = await runInDurableObject(stub, (o: OrderObject) =>
      o.store.sql.exec("SELECT id FROM outbox WHERE delivered_at IS NULL").toArray(),
    );
    expect(rows.length).toBe(failed.length);

    const doctor = (await (await merchant("/v1/doctor")).json()) as { data: DoctorReport };
    const line = doctor.data.checks.find((c) => c.name === "notifications")!;
    expect(line).toMatchObject({ ok: true, warning: true });
    expect(Number(/^(\d+) notification/.exec(line.message)?.[1])).toBeGreaterThanOrEqual(
      failed.length,
    );

    await inboxAnswers(200, 0);
    const res = await post(`/v1/notifications/${paidNote.id}/redeliver`);
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as { data: NotificationView };
    expect(data).toMatchObject({ id: paidNote.id, status: "pending", attempts: MAX_ATTEMPTS });
    await runDurableObjectAlarm(stub);
    const delivered = await eventually(async () => {
      const p = await list(`invoiceNumber=${sub}&status=delivered`);
      return p.data.find((n) => n.id === paidNote.id) ?? null;
    });
    expect(delivered).toMatchObject({ attempts: MAX_ATTEMPTS + 1, lastError: null });
    const received = (await inbox()).filter(
      (e) => e.body.includes(paidNote.id) && e.status === 200,
    );
    expect(received).toHaveLength(1);
    expect(await signedWith(received[0]!, env.MERCHANT_WEBHOOK_SECRET as string)).toBe(true);
    // The others stay failed until asked for.
    const still = await list(`status=failed&invoiceNumber=${sub}`);
    expect(still.data.map((n) => n.id)).not.toContain(paidNote.id);
    expect(still.data).toHaveLength(failed.length - 1);
  });

  it("an object made before the index reports its notifications when it next starts (backfill)", async () => {
    const sub = uniqueSub("nb");
    const stub = await paidOrder(sub);
    await runDurableObjectAlarm(stub);
    // As an older object: the notifications are in its outbox, the feed never saw them, and
    // the index has none of them.
    const ids = await runInDurableObject(stub, (o: OrderObject) => {
      o.store.sql.exec("DELETE FROM index_feed WHERE kind = 'notification'");
      return o.store.sql
        .exec<{ id: string }>("SELECT id FROM outbox")
        .toArray()
        .map((r) => r.id);
    });
    await runInDurableObject(
      testIndex() as unknown as DurableObjectStub<AccountObject>,
      (_o, state) => {
        state.storage.sql.exec("DELETE FROM notifications WHERE invoice_number = ?", sub);
      },
    );
    expect((await list(`invoiceNumber=${sub}`)).data).toEqual([]);
    // What a start does (`ObjectHost`'s constructor): report, then arm the alarm.
    const reported = await runInDurableObject(stub, async (o: OrderObject, state) => {
      const n = backfillFeed(o.store.sql, Date.now());
      await state.storage.setAlarm(Date.now());
      return n;
    });
    expect(reported).toBe(ids.length);
    await runDurableObjectAlarm(stub);
    const listed = await eventually(async () => {
      const p = await list(`invoiceNumber=${sub}`);
      return p.data.length === ids.length ? p.data : null;
    });
    expect(listed.map((n) => n.id).sort()).toEqual([...ids].sort());
    // Once reported, nothing is missing: a second start reports nothing.
    expect(
      await runInDurableObject(stub, (o: OrderObject) => backfillFeed(o.store.sql, Date.now())),
    ).toBe(0);
  });

  it("redeliver: an unknown or malformed id is 404 not_found and changes nothing", async () => {
    const before = await list("limit=100");
    for (const id of ["evt_00000000-0000-4000-8000-000000000000", "nope", "evt_x"]) {
      const res = await post(`/v1/notifications/${id}/redeliver`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    expect((await list("limit=100")).data).toEqual(before.data);
  });
});

describe("POST /v1/notifications/test", () => {
  it("sends one signed test event of each type (data.test = true), logged like any other", async () => {
    const res = await post("/v1/notifications/test", "");
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as { data: NotificationView[] };
    expect(data.map((n) => n.type)).toEqual([...NOTIFICATION_TYPES]);
    expect(data.every((n) => n.status === "pending")).toBe(true);
    const ids = new Set(data.map((n) => n.id));
    await runDurableObjectAlarm(testIndex() as unknown as DurableObjectStub);
    const got = await eventually(async () => {
      const entries = (await inbox()).filter((e) => ids.has(JSON.parse(e.body).id));
      return entries.length === ids.size ? entries : null;
    });
    for (const entry of got) {
      const body = JSON.parse(entry.body) as { data: { test: boolean } };
      expect(body.data.test).toBe(true);
      expect(await signedWith(entry, env.MERCHANT_WEBHOOK_SECRET as string)).toBe(true);
      expect(await signedWith(entry, env.MERCHANT_API_TOKEN as string)).toBe(false);
    }
    await eventually(async () => {
      const p = await list("status=delivered&limit=100");
      return [...ids].every((id) => p.data.some((n) => n.id === id)) ? true : null;
    });
  });

  it("sends one type when asked", async () => {
    const res = await post("/v1/notifications/test", JSON.stringify({ type: "order.paid" }));
    expect(res.status).toBe(202);
    const { data } = (await res.json()) as { data: NotificationView[] };
    expect(data.map((n) => n.type)).toEqual(["order.paid"]);
  });

  it("signs with MERCHANT_API_TOKEN in a deployment without MERCHANT_WEBHOOK_SECRET", async () => {
    const index = testIndex() as unknown as DurableObjectStub<AccountObject>;
    const withoutSecret = { ...env, MERCHANT_WEBHOOK_SECRET: undefined } as Env;
    await runInDurableObject(index, (o: AccountObject) => {
      (o as unknown as { env: Env }).env = withoutSecret;
    });
    try {
      const res = await post("/v1/notifications/test", JSON.stringify({ type: "order.paid" }));
      const [view] = ((await res.json()) as { data: NotificationView[] }).data;
      await runDurableObjectAlarm(index);
      const entry = await eventually(async () => {
        return (await inbox()).find((e) => e.body.includes(view!.id)) ?? null;
      });
      expect(await signedWith(entry, env.MERCHANT_API_TOKEN as string)).toBe(true);
    } finally {
      await runInDurableObject(index, (o: AccountObject) => {
        (o as unknown as { env: Env }).env = env as Env;
      });
    }
  });

  it.each([
    [
      '{"type":"order.shipped"}',
      400,
      "validation_failed",
      "type: must be one of order.status_changed, order.payment_applied, order.paid, order.underpaid, deposit.status_changed, deposit.completed, payout.status_changed",
    ],
    ['{"type":"order.paid","extra":1}', 400, "validation_failed", "body: unknown field extra"],
    ["not json", 400, "bad_request", "JSON"],
  ])("body %s → %i %s, nothing queued", async (body, status, code, message) => {
    const before = (await list("limit=100")).data.length;
    const res = await post("/v1/notifications/test", body);
    expect(res.status).toBe(status);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
    expect((await list("limit=100")).data.length).toBe(before);
  });

  it(`at most ${TEST_SENDS_PER_MINUTE} calls a minute per deployment, then 429 rate_limited with Retry-After, nothing queued; a bad call uses no slot; the window frees up`, async () => {
    const index = testIndex() as unknown as DurableObjectStub<AccountObject>;
    // Other tests of the file sent some: start from an empty window, and leave one behind.
    const forget = () =>
      runInDurableObject(index, (_o, state) => state.storage.kv.delete(throttleKey(TEST_SENDS)));
    const queued = () =>
      runInDurableObject(
        index,
        (_o, state) => state.storage.sql.exec("SELECT count(*) AS n FROM outbox").one().n as number,
      );
    await forget();
    try {
      for (let i = 0; i < TEST_SENDS_PER_MINUTE; i++) {
        expect((await post("/v1/notifications/test", '{"type":"nope"}')).status).toBe(400);
        const res = await post("/v1/notifications/test", JSON.stringify({ type: "order.paid" }));
        expect(res.status).toBe(202);
      }
      const before = await queued();
      for (const body of ["", JSON.stringify({ type: "order.paid" })]) {
        const res = await post("/v1/notifications/test", body);
        expect(res.status).toBe(429);
        const { error } = (await res.json()) as { error: { code: string; message: string } };
        expect(error.code).toBe("rate_limited");
        expect(error.message).toContain(
          `${TEST_SENDS_PER_MINUTE} test notification calls a minute`,
        );
        const retryAfter = Number(res.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
      expect(await queued()).toBe(before);
      // A minute later (the window aged instead of waited for), a call is accepted again.
      await forget();
      expect(
        (await post("/v1/notifications/test", JSON.stringify({ type: "order.paid" }))).status,
      ).toBe(202);
    } finally {
      await forget();
    }
  });

  it("409 webhook_url_missing without MERCHANT_WEBHOOK_URL (nowhere to send)", async () => {
    const res = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/notifications/test", {
        method: "POST",
        headers: { authorization: `Bearer ${env.MERCHANT_API_TOKEN}` },
      }),
      { ...env, MERCHANT_WEBHOOK_URL: "" } as Env,
      { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
    );
    expect(res.status).toBe(409);
    // Not through worker(): check the answer against the OpenAPI document here.
    await checkAnswer("POST", "http://127.0.0.1:8787/v1/notifications/test", res);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      "webhook_url_missing",
    );
  });
});
