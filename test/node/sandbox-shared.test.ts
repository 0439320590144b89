/**
 * What lets many clients' tests (the simulation's histories) share one sandbox: faults scoped
 * to one order, the service's truth read per order without touching faults, deliveries by
 * orderId prefix and the merchant inbox filtered by content.
 */
import { describe, expect, it } from "vitest";
import { newInvoice, sandboxClient, useSandbox } from "./sandbox-kit.ts";

const API_KEY = "sk_shared_test_secret";
const ACCOUNT = "22222222-2222-4222-8222-222222222222";

const { sb, api } = useSandbox(API_KEY, ACCOUNT);

const admin = sandboxClient("", "");
const call = (method: string, path: string, body?: unknown) =>
  admin(method, `${sb.url}${path}`, body);

describe("scoped faults", () => {
  it("hit only requests about their order: by body orderId, by query id, by attempt suffix", async () => {
    await call("POST", "/sandbox/faults", {
      path: "/invoice",
      method: "POST",
      mode: "status",
      status: 503,
      scope: "ord-a",
      times: 2,
    });
    expect((await newInvoice(api, ACCOUNT, "ord-b")).status).toBe(201); // another order: untouched
    expect((await newInvoice(api, ACCOUNT, "ord-ab")).status).toBe(201); // a prefix is not the order
    expect((await newInvoice(api, ACCOUNT, "ord-a")).status).toBe(503);
    expect((await newInvoice(api, ACCOUNT, "ord-a-2")).status).toBe(503); // its second attempt
    expect((await newInvoice(api, ACCOUNT, "ord-a")).status).toBe(201); // consumed

    const a = (await api("GET", `/invoice?accountId=${ACCOUNT}&orderId=ord-a`)).json.data;
    await call("POST", "/sandbox/faults", {
      path: "/invoice",
      method: "GET",
      mode: "status",
      status: 500,
      scope: "ord-a",
    });
    const b = (await api("GET", `/invoice?accountId=${ACCOUNT}&orderId=ord-b`)).json.data;
    expect((await api("GET", `/invoice?accountId=${ACCOUNT}&id=${b.id}`)).status).toBe(200);
    expect((await api("GET", `/invoice?accountId=${ACCOUNT}&id=${a.id}`)).status).toBe(500);
  });

  it("a currency lock is scoped by its invoice id; DELETE ?scope= clears one order's faults only", async () => {
    const c = (await newInvoice(api, ACCOUNT, "ord-c")).json.data;
    for (const scope of ["ord-c", "ord-d"]) {
      const path = "/x-sandbox/invoice/lock-currency";
      await call("POST", "/sandbox/faults", { path, mode: "status", status: 502, scope });
    }
    const lock = await api("POST", "/x-sandbox/invoice/lock-currency", {
      accountId: ACCOUNT,
      id: c.id,
      cryptoCurrencyCode: "TRX",
    });
    expect(lock.status).toBe(502);
    expect((await call("DELETE", "/sandbox/faults?scope=ord-d")).status).toBe(204);
    expect((await call("GET", "/sandbox/faults")).json.data).toEqual([]);
  });
});

describe("truth views, deliveries and the inbox per order", () => {
  it("list one order's invoices and withdrawals and need a prefix", async () => {
    await newInvoice(api, ACCOUNT, "view-1");
    await newInvoice(api, ACCOUNT, "view-1-2");
    await newInvoice(api, ACCOUNT, "view-10");
    const list = (await call("GET", "/sandbox/invoices?orderIdPrefix=view-1-")).json.data;
    expect(list.map((i: { orderId: string }) => i.orderId)).toEqual(["view-1-2"]);
    const all = (await call("GET", "/sandbox/invoices?orderIdPrefix=view-1")).json.data;
    expect(all).toHaveLength(3);
    expect((await call("GET", "/sandbox/invoices")).status).toBe(400);
    expect((await call("GET", "/sandbox/withdrawals?orderIdPrefix=view-1")).json.data).toEqual([]);
  });

  it("deliveries by orderId prefix; inbox entries by content", async () => {
    await newInvoice(api, ACCOUNT, "hook-1");
    await call("POST", "/sandbox/invoices/hook-1/simulate", { action: "paid" });
    const hooks = (await call("GET", "/sandbox/webhooks?orderIdPrefix=hook-")).json.data;
    expect(hooks.map((h: { status: string }) => h.status)).toEqual(["processing", "paid"]);
    for (const body of ['{"n":"x1"}', '{"n":"y2"}']) {
      await fetch(`${sb.url}/sandbox/merchant-inbox`, { method: "POST", body });
    }
    const got = (await call("GET", "/sandbox/merchant-inbox?contains=%22y2%22")).json.data;
    expect(got.map((e: { body: string }) => e.body)).toEqual(['{"n":"y2"}']);
  });
});
