import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import {
  deliverAll,
  fault,
  merchant,
  openCheckout,
  postJson,
  simulate,
  token,
  uniqueIp,
  uniqueSub,
  upstreamInvoice,
  upstreamRequests,
  worker,
} from "./helpers.ts";

type Body = { data: CheckoutSnapshot; error?: { code: string; message: string } };

describe("POST /v1/checkouts", () => {
  it("creates the upstream invoice with orderId <prefix>-<sub> and answers 201 with a snapshot", async () => {
    const sub = uniqueSub("new");
    const { status, body } = await openCheckout({ sub, amount: "49.90", description: "Two mugs" });
    expect(status).toBe(201);
    const snap = body.data;
    expect(snap.invoiceNumber).toBe(sub);
    expect(snap.amount).toBe("49.90");
    expect(snap.currency).toBe("USD");
    expect(snap.fiatDecimalPlaces).toBe(2);
    expect(snap.attempt.orderId).toBe(`cc-${sub}`);
    expect(snap.attempt.status).toBe("created");
    expect(snap.attempt.number).toBe(1);
    expect(snap.orderState).toBe("unpaid");
    expect(snap.amountDue).toBe("49.90");
    expect(snap.mode).toBe("in-page");
    expect(snap.sandbox).toBe(true);
    expect(snap.description).toBe("Two mugs");
    expect(snap.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const upstream = await upstreamInvoice(`cc-${sub}`);
    expect(upstream.status).toBe(200);
    // The checkout id is not the upstream invoice id.
    expect(snap.id).not.toBe(upstream.body.data.id);
    expect(snap.attempt.paymentPageUrl).toBe(upstream.body.data.paymentPageUrl);
  });

  it("returns the same checkout (200) for the same claims, without a second upstream call", async () => {
    const sub = uniqueSub("same");
    const first = await openCheckout({ sub });
    const second = await openCheckout({ sub });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.attempt.orderId).toBe(first.body.data.attempt.orderId);
  });

  it("answers 409 checkout_conflict for the same sub with another amount or currency, with no upstream call", async () => {
    const sub = uniqueSub("conf");
    await openCheckout({ sub, amount: "10.00" });
    const before = (await upstreamRequests("/invoice", "POST")).length;
    const other = await openCheckout({ sub, amount: "11.00" });
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe("checkout_conflict");
    const eur = await openCheckout({ sub, amount: "10.00", currency: "EUR" });
    expect(eur.status).toBe(409);
    expect((await upstreamRequests("/invoice", "POST")).length).toBe(before);
    // "10.0" is the same amount as "10.00": not a conflict.
    expect((await openCheckout({ sub, amount: "10.0" })).status).toBe(200);
  });

  it("makes one upstream invoice for 20 concurrent identical requests", async () => {
    const sub = uniqueSub("conc");
    const t = await token({ sub });
    const before = (await upstreamRequests("/invoice", "POST")).length;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        postJson("/v1/checkouts", { token: t }, { "cf-connecting-ip": uniqueIp() }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    const ids = new Set(
      await Promise.all(results.map(async (r) => ((await r.json()) as Body).data.id)),
    );
    expect(ids.size).toBe(1);
    expect((await upstreamRequests("/invoice", "POST")).length - before).toBe(1);
  });

  it("retries a 5xx with the same orderId and ends with one upstream invoice", async () => {
    const sub = uniqueSub("r5xx");
    await fault({ path: "/invoice", method: "POST", mode: "status", status: 502, times: 1 });
    const { status, body } = await openCheckout({ sub });
    expect(status).toBe(201);
    expect(body.data.attempt.orderId).toBe(`cc-${sub}`);
    const posts = (await upstreamRequests("/invoice", "POST")).slice(-2);
    expect(posts.map((p) => p.status)).toEqual([502, 201]);
  });

  it("retries after a timeout that happened after the invoice was created: still one invoice", async () => {
    const sub = uniqueSub("rto");
    await fault({
      path: "/invoice",
      method: "POST",
      mode: "timeout-after-create",
      delayMs: 12_000,
      times: 1,
    });
    const { status, body } = await openCheckout({ sub });
    expect(status).toBe(201);
    expect(body.data.attempt.orderId).toBe(`cc-${sub}`);
    // Two POSTs went out with the same orderId; the order holds the one invoice the service has.
    const posts = (await upstreamRequests("/invoice", "POST")).slice(-2);
    expect(posts).toHaveLength(2);
    const upstream = await upstreamInvoice(`cc-${sub}`);
    const ledger = (await (await merchant(`/v1/orders/${sub}`)).json()) as {
      data: { attempts: { invoiceId: string }[] };
    };
    expect(ledger.data.attempts.map((a) => a.invoiceId)).toEqual([upstream.body.data.id]);
  }, 30_000);

  it("answers the service's own rate limit with 429 and Retry-After in whole seconds", async () => {
    const sub = uniqueSub("r429");
    await fault({
      path: "/invoice",
      method: "POST",
      mode: "status",
      status: 429,
      msBeforeNext: 1200,
      times: 3,
    });
    const res = await postJson(
      "/v1/checkouts",
      { token: await token({ sub }) },
      { "cf-connecting-ip": uniqueIp() },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(((await res.json()) as Body).error?.code).toBe("service_busy");
  });

  it("answers 503 service_busy when the service keeps failing, and a later open succeeds", async () => {
    const sub = uniqueSub("busy");
    await fault({ path: "/invoice", method: "POST", mode: "status", status: 503, times: 3 });
    const failed = await openCheckout({ sub });
    expect(failed.status).toBe(503);
    expect(failed.body.error?.code).toBe("service_busy");
    const ok = await openCheckout({ sub });
    expect(ok.status).toBe(201);
  });
});

describe("claims of a create that has no order row yet", () => {
  it("answers 409 to another amount while the first create is still in flight", async () => {
    const sub = uniqueSub("race");
    await fault({ path: "/invoice", method: "POST", mode: "delay", delayMs: 800, times: 1 });
    const first = openCheckout({ sub, amount: "10.00" });
    await new Promise((r) => setTimeout(r, 200));
    const other = await openCheckout({ sub, amount: "99.00" });
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe("checkout_conflict");
    const done = await first;
    expect(done.status).toBe(201);
    expect(done.body.data.amount).toBe("10.00");
    expect((await upstreamInvoice(`cc-${sub}`)).body.data.amount).toBe(10);
  });

  it("keeps the terms after an uncertain failure: another amount gets 409 with no upstream call", async () => {
    const sub = uniqueSub("unc");
    await fault({ path: "/invoice", method: "POST", mode: "status", status: 503, times: 3 });
    expect((await openCheckout({ sub, amount: "10.00" })).status).toBe(503);
    const before = (await upstreamRequests("/invoice", "POST")).length;
    const other = await openCheckout({ sub, amount: "12.00" });
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe("checkout_conflict");
    expect((await upstreamRequests("/invoice", "POST")).length).toBe(before);
    expect((await openCheckout({ sub, amount: "10.00" })).status).toBe(201);
  });

  it("forgets the terms after a definite refusal: a corrected token can open the order", async () => {
    const sub = uniqueSub("def");
    await fault({ path: "/invoice", method: "POST", mode: "status", status: 400, times: 1 });
    const refused = await openCheckout({ sub, amount: "10.00" });
    expect(refused.status).toBe(502);
    expect(refused.body.error?.code).toBe("upstream_error");
    // The service's raw code is logged, never shown to the shopper.
    expect(refused.body.error?.message).not.toContain("exceptions");
    expect(refused.body.error?.message).not.toContain("400");
    const corrected = await openCheckout({ sub, amount: "12.00" });
    expect(corrected.status).toBe(201);
    expect(corrected.body.data.amount).toBe("12.00");
  });
});

describe("orderId collisions (invoice numbers may end in -<digits>)", () => {
  type Ledger = { data: { attempts: { invoiceId: string; orderId: string }[] } };
  const attemptsOf = async (sub: string) =>
    ((await (await merchant(`/v1/orders/${sub}`)).json()) as Ledger).data.attempts;

  it("gives attempt 2 of order Y the next free number (cc-Y-3) when order Y-2 owns cc-Y-2, never its invoice", async () => {
    const y = uniqueSub("col");
    const other = await openCheckout({ sub: `${y}-2`, amount: "10.00" });
    expect(other.status).toBe(201);
    const mine = await openCheckout({ sub: y, amount: "10.00" });
    await simulate(`cc-${y}`, "expire");
    await deliverAll(`cc-${y}`);
    const res = await worker(`/v1/checkouts/${mine.body.data.id}/retry`, { method: "POST" });
    expect(res.status).toBe(200);
    // No attempt adopted the other order's invoice; the retry took the next number.
    const owner = (await upstreamInvoice(`cc-${y}-2`)).body.data.id;
    expect((await attemptsOf(y)).map((a) => a.orderId)).toEqual([`cc-${y}`, `cc-${y}-3`]);
    expect((await attemptsOf(y)).map((a) => a.invoiceId)).not.toContain(owner);
    expect((await attemptsOf(`${y}-2`)).map((a) => a.invoiceId)).toEqual([owner]);
  });

  it("refuses order Y-2 with 409 order_id_collision when attempt 2 of order Y owns cc-Y-2", async () => {
    const y = uniqueSub("col");
    const mine = await openCheckout({ sub: y, amount: "10.00" });
    await simulate(`cc-${y}`, "expire");
    await deliverAll(`cc-${y}`);
    const retry = await worker(`/v1/checkouts/${mine.body.data.id}/retry`, { method: "POST" });
    expect(retry.status).toBe(200);
    const other = await openCheckout({ sub: `${y}-2`, amount: "10.00" });
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe("order_id_collision");
    expect((await merchant(`/v1/orders/${y}-2`)).status).toBe(404);
    expect((await attemptsOf(y)).map((a) => a.orderId)).toEqual([`cc-${y}`, `cc-${y}-2`]);
  });
});

describe("attempts", () => {
  it("refuses retry with 409 order_paid once the order is paid", async () => {
    const sub = uniqueSub("paid");
    const { body } = await openCheckout({ sub });
    await simulate(`cc-${sub}`, "paid");
    await deliverAll(`cc-${sub}`);
    const before = (await upstreamRequests("/invoice", "POST")).length;
    const res = await worker(`/v1/checkouts/${body.data.id}/retry`, { method: "POST" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as Body).error?.code).toBe("order_paid");
    expect((await upstreamRequests("/invoice", "POST")).length).toBe(before);
  });

  it("a failed retry stores no attempt; the next retry opens -2", async () => {
    const sub = uniqueSub("fret");
    const { body } = await openCheckout({ sub });
    await simulate(`cc-${sub}`, "expire");
    await deliverAll(`cc-${sub}`);
    await fault({ path: "/invoice", method: "POST", mode: "status", status: 400, times: 1 });
    const failed = await worker(`/v1/checkouts/${body.data.id}/retry`, { method: "POST" });
    expect(failed.status).toBe(502);
    const still = ((await (await worker(`/v1/checkouts/${body.data.id}`)).json()) as Body).data;
    expect(still.attempt.number).toBe(1);
    expect(still.canRetry).toBe(true);
    const ok = await worker(`/v1/checkouts/${body.data.id}/retry`, { method: "POST" });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Body).data.attempt.orderId).toBe(`cc-${sub}-2`);
  });

  it("refuses retry while the attempt is open, then numbers new attempts -2, -3", async () => {
    const sub = uniqueSub("att");
    const { body } = await openCheckout({ sub });
    const id = body.data.id;
    const early = await worker(`/v1/checkouts/${id}/retry`, { method: "POST" });
    expect(early.status).toBe(409);
    expect(((await early.json()) as Body).error?.code).toBe("attempt_open");

    await simulate(`cc-${sub}`, "expire");
    await deliverAll(`cc-${sub}`);
    const second = await worker(`/v1/checkouts/${id}/retry`, { method: "POST" });
    expect(second.status).toBe(200);
    const snap2 = ((await second.json()) as Body).data;
    expect(snap2.attempt.number).toBe(2);
    expect(snap2.attempt.orderId).toBe(`cc-${sub}-2`);
    expect(snap2.attempt.status).toBe("created");

    await simulate(`cc-${sub}-2`, "cancel");
    await deliverAll(`cc-${sub}-2`);
    const third = await worker(`/v1/checkouts/${id}/retry`, { method: "POST" });
    expect(((await third.json()) as Body).data.attempt.orderId).toBe(`cc-${sub}-3`);
  });
});

describe("GET /v1/checkouts/:id", () => {
  it("returns the snapshot for a known id and 404 for unknown or malformed ids", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("get") });
    const ok = await worker(`/v1/checkouts/${body.data.id}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Body).data.id).toBe(body.data.id);
    expect((await worker("/v1/checkouts/AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    expect((await worker("/v1/checkouts/../../etc")).status).toBe(404);
  });
});

describe("currency lock (in-page mode, through the sandbox adapter)", () => {
  it("locks a currency: exact amount, address, wallet link, expiry", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("lock"), amount: "65.00" });
    const res = await postJson(`/v1/checkouts/${body.data.id}/currency`, {
      cryptoCurrencyCode: "BTC",
    });
    expect(res.status).toBe(200);
    const pay = ((await res.json()) as Body).data.attempt.payment;
    expect(pay?.cryptoCurrencyCode).toBe("BTC");
    expect(pay?.decimalPlaces).toBe(8);
    expect(pay?.amount).toMatch(/^\d+\.\d{1,8}$/);
    expect(pay?.address).toMatch(/^tb1/);
    expect(pay?.walletUri).toBe(`bitcoin:${pay?.address}?amount=${pay?.amount}`);
    expect(pay?.expiresAt).toBeTruthy();
  });

  it("rejects a crypto currency the live list lacks with 400 currency_unavailable (what the service's currencyNotFound maps to) and a malformed one with 400 validation_failed", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("lockx") });
    const unknown = await postJson(`/v1/checkouts/${body.data.id}/currency`, {
      cryptoCurrencyCode: "DOGE",
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Body).error?.code).toBe("currency_unavailable");
    const bad = await postJson(`/v1/checkouts/${body.data.id}/currency`, {
      cryptoCurrencyCode: "<x>",
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Body).error?.code).toBe("validation_failed");
  });
});

describe("refund address", () => {
  it("accepts an address matching the currency's addressMask and refuses others", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("refund") });
    const bad = await postJson(`/v1/checkouts/${body.data.id}/refund-address`, {
      cryptoCurrencyCode: "USDT_TRC20",
      address: "0x1234",
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Body).error?.code).toBe("invalid_address");
    const good = await postJson(`/v1/checkouts/${body.data.id}/refund-address`, {
      cryptoCurrencyCode: "USDT_TRC20",
      address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    });
    expect(good.status).toBe(200);
    expect(((await good.json()) as Body).data.refundAddress).toEqual({
      cryptoCurrencyCode: "USDT_TRC20",
      address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    });
  });

  it("refuses an EVM address whose mixed case is not its EIP-55 checksum (a typo)", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("refund-evm") });
    const url = `/v1/checkouts/${body.data.id}/refund-address`;
    // EIP-55's own example; the typo flips the case of one letter (e → E).
    const right = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const typo = "0x5aAeb6053F3E94C9b9A09f33669435E7EF1BeAed";
    for (const cryptoCurrencyCode of ["USDT_ERC20", "ETH", "USDC_BEP20", "BNB"]) {
      const bad = await postJson(url, { cryptoCurrencyCode, address: typo });
      const error = ((await bad.json()) as Body).error;
      expect([cryptoCurrencyCode, bad.status, error?.code]).toEqual([
        cryptoCurrencyCode,
        400,
        "invalid_address",
      ]);
      expect(error?.message).toContain("checksum");
      for (const address of [right, right.toLowerCase()]) {
        const good = await postJson(url, { cryptoCurrencyCode, address });
        expect([cryptoCurrencyCode, address, good.status]).toEqual([
          cryptoCurrencyCode,
          address,
          200,
        ]);
        expect(((await good.json()) as Body).data.refundAddress?.address).toBe(address);
      }
    }
  }, 30_000);
});

describe("abuse limits", () => {
  it("refuses a disallowed origin with 403 forbidden_origin and answers allowed origins with CORS headers", async () => {
    const denied = await worker("/v1/currencies", { headers: { origin: "https://evil.example" } });
    expect(denied.status).toBe(403);
    // Readable by the refused page, so the widget can say the site is not allowed and the
    // console can name the setting and the origin (the list of allowed origins is not shown).
    expect(denied.headers.get("access-control-allow-origin")).toBe("https://evil.example");
    expect(denied.headers.get("access-control-allow-credentials")).toBeNull();
    const body = (await denied.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("forbidden_origin");
    expect(body.error.message).toContain("ALLOWED_ORIGINS");
    expect(body.error.message).toContain("https://evil.example");
    expect(body.error.message).not.toContain("127.0.0.1:5173");
    // Its preflight passes, so the real POST reaches the worker and gets that readable 403.
    const deniedPreflight = await worker("/v1/checkouts", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(deniedPreflight.status).toBe(204);
    expect(deniedPreflight.headers.get("access-control-allow-origin")).toBe("https://evil.example");
    expect(deniedPreflight.headers.get("access-control-allow-headers")).toContain("content-type");
    const preflight = await worker("/v1/checkouts", {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:5173", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:5173");
    const allowed = await worker("/v1/currencies/fiat", {
      headers: { origin: "http://127.0.0.1:5173" },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:5173");
    // CORS runs once per request: one Vary entry, not "Origin, Origin".
    expect(allowed.headers.get("vary")).toBe("Origin");
    const list = await worker("/v1/currencies", { headers: { origin: "http://127.0.0.1:5173" } });
    expect(list.headers.get("vary")).toBe("Origin");
  });

  it("refuses an oversized body with 413 payload_too_large", async () => {
    const res = await postJson(
      "/v1/checkouts",
      { token: "x".repeat(20_000) },
      { "cf-connecting-ip": uniqueIp() },
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as Body).error?.code).toBe("payload_too_large");
  });

  it("rate-limits checkout creation per client with 429 rate_limited", async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      const res = await postJson(
        "/v1/checkouts",
        { token: "not-a-token" },
        { "cf-connecting-ip": ip },
      );
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeGreaterThanOrEqual(30);
    // Another client is not affected.
    const other = await postJson(
      "/v1/checkouts",
      { token: "not-a-token" },
      { "cf-connecting-ip": uniqueIp() },
    );
    expect(other.status).toBe(401);
  });

  it("a client over the limit with a valid token gets 429 and creates nothing (the token is checked while the limit is asked)", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 30; i++) {
      const res = await postJson(
        "/v1/checkouts",
        { token: "not-a-token" },
        { "cf-connecting-ip": ip },
      );
      expect(res.status).toBe(401);
    }
    const sub = uniqueSub("limited");
    const limited = await openCheckout({ sub }, ip);
    expect([limited.status, limited.body.error?.code]).toEqual([429, "rate_limited"]);
    // No order object was opened and no invoice was asked of the service.
    expect((await upstreamInvoice(`cc-${sub}`)).status).toBe(404);
    expect((await merchant(`/v1/orders/${sub}`)).status).toBe(404);
    // Another client opens the same order at once.
    expect((await openCheckout({ sub })).status).toBe(201);
  });
});
