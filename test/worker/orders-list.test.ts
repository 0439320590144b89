/**
 * `GET /v1/orders` and `GET /v1/orders.csv`: the account's index, fed by each order's outbox,
 * listed newest first with a cursor and filters, exported as exact CSV. Bad queries are a 400
 * naming the parameter.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FEED_COALESCE_MS, feedOwed } from "../../worker/core/events/index-feed.ts";
import { ORDER_CSV_COLUMNS, type OrderSummary } from "../../worker/lib/api/merchant-ops.ts";
import { eventually } from "../support/wait.ts";
import { seedOrders, summary, testIndex } from "./account-index.ts";
import {
  deliverAll,
  ledgerOf,
  merchant,
  openCheckout,
  postJson,
  simulate,
  uniqueSub,
  worker,
} from "./helpers.ts";

type Page = { data: OrderSummary[]; nextCursor: string | null };

async function list(query: string): Promise<Page> {
  const res = await merchant(`/v1/orders?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

/** A prefix no other test uses: the index is shared by the file. */
const prefix = () => uniqueSub("L").replace(/[^A-Za-z0-9]/g, "");

describe("GET /v1/orders", () => {
  it("an open and a lock within a second reach the index in one run of the order's own alarm, about a second after the open (FEED_COALESCE_MS), never before the open answers", async () => {
    const sub = uniqueSub("lsc");
    const before = Date.now();
    const { body } = await openCheckout({ sub, amount: "30.00" });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const alarmAt = await runInDurableObject(stub, (_o, state) => state.storage.getAlarm());
    expect(alarmAt).not.toBeNull();
    expect(alarmAt! - before).toBeGreaterThanOrEqual(FEED_COALESCE_MS);
    expect(alarmAt! - Date.now()).toBeLessThanOrEqual(FEED_COALESCE_MS);
    await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
    // The lock's summary joins the same delivery: the alarm was not brought forward.
    expect(await runInDurableObject(stub, (_o, state) => state.storage.getAlarm())).toBe(alarmAt);
    // Not forced: the runtime runs the alarm on its own.
    const listed = await eventually(async () => {
      const [row] = (await list(`invoicePrefix=${sub}`)).data;
      return row?.cryptoCurrencyCode === "USDT_TRC20" ? row : null;
    });
    expect(listed.invoiceNumber).toBe(sub);
    const owed = await runInDurableObject(stub, (_o, state) => feedOwed(state.storage.sql));
    expect(owed).toBe(0);
  });

  it("lists a paid order, from its own outbox, equal to its ledger", async () => {
    const sub = uniqueSub("lst");
    const { body } = await openCheckout({ sub, amount: "30.00" });
    await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "USDT_TRC20" });
    await simulate(`cc-${sub}`, "paid");
    await deliverAll(`cc-${sub}`);
    await runDurableObjectAlarm(env.ORDERS.get(env.ORDERS.idFromName(body.data.id)));
    const listed = await eventually(async () => {
      const [row] = (await list(`invoicePrefix=${sub}`)).data;
      return row?.state === "paid" && row.paidAt ? row : null;
    });
    const ledger = await ledgerOf(sub);
    expect(listed).toMatchObject({
      invoiceNumber: sub,
      state: "paid",
      amount: "30.00",
      currency: "USD",
      amountPaid: ledger.amountPaid,
      cryptoCurrencyCode: "USDT_TRC20",
      cryptoAmountReceived: ledger.attempts[0]!.cryptoReceived,
      lastInvoiceStatus: "paid",
      attempts: 1,
      createdAt: ledger.createdAt,
    });
    expect(listed.paidAt).toBe(
      ledger.notifications.find((n) => n.type === "order.paid")!.createdAt,
    );
    expect(Object.keys(listed)).toEqual(ORDER_CSV_COLUMNS);
  });

  it("keeps the newest version: a stale or repeated feed entry changes nothing", async () => {
    const p = prefix();
    const invoiceNumber = `${p}x`;
    await seedOrders([summary({ invoiceNumber, state: "paid", amountPaid: "10.00" })], 2);
    await seedOrders([summary({ invoiceNumber, state: "unpaid" })], 1);
    await seedOrders([summary({ invoiceNumber, state: "partially_paid" })], 2);
    const [row] = (await list(`invoicePrefix=${p}`)).data;
    expect(row).toMatchObject({ state: "paid", amountPaid: "10.00" });
    await seedOrders([summary({ invoiceNumber, state: "refunded" })], 3);
    expect((await list(`invoicePrefix=${p}`)).data[0]!.state).toBe("refunded");
  });

  it("is newest first (createdAt, then invoice number) and the cursor walks every page once", async () => {
    const p = prefix();
    const at = (m: number) => `2026-02-01T00:${String(m).padStart(2, "0")}:00.000Z`;
    // Two orders share a createdAt: the invoice number orders them (descending).
    const orders = [
      summary({ invoiceNumber: `${p}a`, createdAt: at(1) }),
      summary({ invoiceNumber: `${p}b`, createdAt: at(5) }),
      summary({ invoiceNumber: `${p}c`, createdAt: at(5) }),
      summary({ invoiceNumber: `${p}d`, createdAt: at(3) }),
      summary({ invoiceNumber: `${p}e`, createdAt: at(9) }),
      summary({ invoiceNumber: `${p}f`, createdAt: at(2) }),
      summary({ invoiceNumber: `${p}g`, createdAt: at(7) }),
    ];
    await seedOrders(orders);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(
        `invoicePrefix=${p}&limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      );
      sizes.push(page.data.length);
      seen.push(...page.data.map((o) => o.invoiceNumber.slice(p.length)));
      cursor = page.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen.join("")).toBe("egcbdfa");
    // The default page is 50.
    expect((await list(`invoicePrefix=${p}`)).data).toHaveLength(7);
  });

  it("filters by state (one or several), created range, invoice prefix, currency and crypto currency", async () => {
    const p = prefix();
    await seedOrders([
      summary({
        invoiceNumber: `${p}1`,
        state: "paid",
        createdAt: "2026-03-01T00:00:00.000Z",
        currency: "EUR",
        cryptoCurrencyCode: "BTC",
      }),
      summary({
        invoiceNumber: `${p}2`,
        state: "partially_paid",
        createdAt: "2026-03-02T00:00:00.000Z",
        cryptoCurrencyCode: "USDT_TRC20",
      }),
      summary({ invoiceNumber: `${p}3`, state: "unpaid", createdAt: "2026-03-03T00:00:00.000Z" }),
      summary({
        invoiceNumber: `${p}_4`,
        state: "refunded",
        createdAt: "2026-03-04T00:00:00.000Z",
      }),
    ]);
    const numbers = async (q: string) =>
      (await list(`invoicePrefix=${p}&${q}`)).data.map((o) => o.invoiceNumber.slice(p.length));
    expect(await numbers("state=paid")).toEqual(["1"]);
    expect(await numbers("state=paid,unpaid")).toEqual(["3", "1"]);
    // From inclusive, to exclusive; any zone is the same instant.
    expect(
      await numbers("createdFrom=2026-03-02T00:00:00Z&createdTo=2026-03-04T00:00:00Z"),
    ).toEqual(["3", "2"]);
    expect(await numbers("createdFrom=2026-03-02T01:00:00%2B01:00")).toEqual(["_4", "3", "2"]);
    expect(await numbers("currency=EUR")).toEqual(["1"]);
    expect(await numbers("cryptoCurrencyCode=USDT_TRC20")).toEqual(["2"]);
    // A prefix is exact: `_` is no wildcard, and case counts.
    expect((await list(`invoicePrefix=${p}_`)).data.map((o) => o.invoiceNumber)).toEqual([
      `${p}_4`,
    ]);
    expect((await list(`invoicePrefix=${p.toUpperCase()}Z`)).data).toEqual([]);
  });

  it("a state named 100+ times is one state (SQLite binds at most 100 values): 200, deduplicated, on the list and the export", async () => {
    const p = prefix();
    await seedOrders([
      summary({ invoiceNumber: `${p}1`, state: "paid", createdAt: "2026-03-01T00:00:00.000Z" }),
      summary({ invoiceNumber: `${p}2`, state: "unpaid", createdAt: "2026-03-02T00:00:00.000Z" }),
    ]);
    const many = Array.from({ length: 150 }, (_, i) => (i % 2 ? "paid" : "unpaid")).join(",");
    const listed = await list(`invoicePrefix=${p}&state=${many}`);
    expect(listed.data.map((o) => o.invoiceNumber)).toEqual([`${p}2`, `${p}1`]);
    const csv = await merchant(`/v1/orders.csv?invoicePrefix=${p}&state=${many}`);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split("\r\n").filter(Boolean)).toHaveLength(3);
    // The index takes the filters from other callers too: it binds each state once.
    const direct = await testIndex().listOrders(
      { invoicePrefix: p, states: Array.from({ length: 150 }, () => "paid" as const) },
      5,
      null,
    );
    expect(direct.data.map((o) => o.invoiceNumber)).toEqual([`${p}1`]);
  });

  it("a state beyond the four is 400 validation_failed naming state, even among 100+ valid ones", async () => {
    const many = Array.from({ length: 120 }, () => "paid").join(",");
    for (const path of ["/v1/orders", "/v1/orders.csv"]) {
      const res = await merchant(`${path}?state=${many},settled`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.message).toMatch(/^state must be unpaid, partially_paid, paid or refunded/);
    }
  });

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 100"],
    ["limit=101", "limit must be a whole number from 1 to 100"],
    ["limit=ten", "limit must be a whole number from 1 to 100"],
    ["state=done", "state must be unpaid, partially_paid, paid or refunded"],
    ["state=paid,", "state must be unpaid, partially_paid, paid or refunded"],
    ["createdFrom=yesterday", "createdFrom must be an ISO 8601 instant"],
    ["createdTo=2026-01-01", "createdTo must be an ISO 8601 instant"],
    [
      "createdFrom=2026-02-01T00:00:00Z&createdTo=2026-01-01T00:00:00Z",
      "createdFrom must be before createdTo",
    ],
    ["invoicePrefix=a*b", "invoicePrefix must be 1-64 characters of A-Z a-z 0-9 . _ -."],
    ["invoicePrefix=%", "invoicePrefix must be 1-64 characters of A-Z a-z 0-9 . _ -."],
    ["currency=usd", "currency must be a fiat code"],
    ["cryptoCurrencyCode=usdt", "cryptoCurrencyCode must be a currency code"],
    ["cursor=!!!", "cursor is not a cursor from nextCursor"],
    ["cursor=Zm9v", "cursor is not a cursor from nextCursor"],
    ["sort=asc", "Unknown query parameter: sort"],
    ["state=paid&state=unpaid", "Repeated query parameter: state."],
  ])("?%s → 400 validation_failed naming the parameter", async (query, message) => {
    const res = await merchant(`/v1/orders?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.message).toContain(message);
  });

  it("needs the merchant Bearer token (401), the list and the export alike", async () => {
    for (const path of ["/v1/orders", "/v1/orders.csv"]) {
      const res = await worker(path);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
  });
});

describe("GET /v1/orders.csv", () => {
  it("streams every matching order: header = OrderSummary keys, RFC 4180 quoting, exact amounts", async () => {
    const p = prefix();
    await seedOrders([
      summary({
        invoiceNumber: `${p}1`,
        state: "paid",
        amount: "12345678901234567890.12",
        amountPaid: "12345678901234567890.12",
        cryptoCurrencyCode: "ETH",
        cryptoAmountReceived: "0.000000000000000001",
        createdAt: "2026-04-02T00:00:00.000Z",
        paidAt: "2026-04-02T00:01:00.000Z",
        paymentMethod: "x402",
        x402Payer: "0x1111111111111111111111111111111111111111",
        x402Transaction: "0xabc",
      }),
      // Not a real invoice number: proves the writer quotes whatever the index holds.
      summary({ invoiceNumber: `${p}2,"q"\nx`, createdAt: "2026-04-01T00:00:00.000Z" }),
    ]);
    const res = await merchant(`/v1/orders.csv?invoicePrefix=${p}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await res.text();
    expect(text).toBe(
      [
        ORDER_CSV_COLUMNS.join(","),
        `${p}1,paid,12345678901234567890.12,USD,12345678901234567890.12,ETH,0.000000000000000001,created,1,2026-04-02T00:00:00.000Z,2026-01-01T00:00:00.000Z,2026-04-02T00:01:00.000Z,x402,0x1111111111111111111111111111111111111111,0xabc`,
        `"${p}2,""q""\nx",unpaid,10.00,USD,0,,,created,1,2026-04-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,,,,`,
        "",
      ].join("\r\n"),
    );
  });

  it("neutralises a text field a spreadsheet would read as a formula (=, +, -, @, TAB, CR) with a leading ', never an amount", async () => {
    const p = prefix();
    // Invoice numbers (a token's `sub` allows `-`), and other text columns as the index could
    // hold them; the amounts are negative only to prove they are never touched.
    await seedOrders([
      summary({
        invoiceNumber: `${p}1`,
        state: "=1+2" as OrderSummary["state"],
        currency: "+USD",
        cryptoCurrencyCode: "@SUM(A1)",
        lastInvoiceStatus: "\tpaid" as OrderSummary["lastInvoiceStatus"],
        amount: "-10.00",
        amountPaid: "-1",
        cryptoAmountReceived: "-0.5",
        createdAt: "2026-04-03T00:00:00.000Z",
        updatedAt: "\r2026",
      }),
    ]);
    const csvOf = async (q: string) => {
      const res = await merchant(`/v1/orders.csv?${q}`);
      expect(res.status).toBe(200);
      return (await res.text()).split("\r\n")[1];
    };
    expect(await csvOf(`invoicePrefix=${p}`)).toBe(
      `${p}1,'=1+2,-10.00,'+USD,-1,'@SUM(A1),-0.5,'\tpaid,1,2026-04-03T00:00:00.000Z,"'\r2026",,,,`,
    );
    // A real invoice number starting with `-`, as a token's `sub` may.
    const invoice = `-A1-B1${p}`;
    await seedOrders([summary({ invoiceNumber: invoice })]);
    expect(await csvOf(`invoicePrefix=-A1-B1${p}`)).toMatch(new RegExp(`^'-A1-B1${p},unpaid,`));
    // The list answers JSON: the value is untouched there.
    expect((await list(`invoicePrefix=-A1-B1${p}`)).data[0]!.invoiceNumber).toBe(invoice);
  });

  it("pages through the index for large exports (1,201 orders, 3 index pages)", async () => {
    const p = prefix();
    const orders = Array.from({ length: 1201 }, (_, i) =>
      summary({
        invoiceNumber: `${p}${String(i).padStart(4, "0")}`,
        createdAt: new Date(Date.UTC(2026, 4, 1) + i * 1000).toISOString(),
      }),
    );
    await seedOrders(orders);
    const text = await (await merchant(`/v1/orders.csv?invoicePrefix=${p}&state=unpaid`)).text();
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(1202);
    expect(lines[1]!.startsWith(`${p}1200,`)).toBe(true);
    expect(lines[1201]!.startsWith(`${p}0000,`)).toBe(true);
    expect(new Set(lines).size).toBe(1202);
  });

  it("refuses paging parameters and bad filters with 400, like the list", async () => {
    for (const [query, message] of [
      ["limit=10", "Unknown query parameter: limit"],
      ["cursor=abc", "Unknown query parameter: cursor"],
      ["state=lost", "state must be"],
    ] as const) {
      const res = await merchant(`/v1/orders.csv?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error).toMatchObject({ code: "validation_failed" });
      expect(body.error.message).toContain(message);
    }
  });
});

it("the index answers listOrders directly (the route's one call per page)", async () => {
  const page = await testIndex().listOrders({ invoicePrefix: "no-such-prefix" }, 5, null);
  expect(page).toEqual({ data: [], next: null });
});
