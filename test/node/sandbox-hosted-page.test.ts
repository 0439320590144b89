/**
 * The sandbox as the public API only (`currencyLock: false`) and its hosted payment page: the
 * extension route answers exactly as an unknown route; the page lists the invoice's currencies
 * with the tenant's minimums, the payer's choice locks one without a webhook, the page then
 * shows amount, address, QR and status, and sends the payer back by outcome.
 */
import { describe, expect, it } from "vitest";
import { payOptions, returnTarget } from "../../demo/sandbox/pay-page.ts";
import type { InvoiceRecord } from "../../demo/sandbox/state.ts";
import { useSandbox, webhooksFor } from "./sandbox-kit.ts";

const API_KEY = "sk_hosted_test";
const ACCOUNT = "22222222-2222-4222-8222-222222222222";

const { sb, api } = useSandbox(API_KEY, ACCOUNT, { currencyLock: false });

const create = async (body: Record<string, unknown>) => {
  const r = await api("POST", "/invoice", { accountId: ACCOUNT, fiatCurrencyCode: "USD", ...body });
  expect(r.status).toBe(201);
  return r.json.data as { id: string; paymentPageUrl: string };
};
const choose = (id: string, code: string) =>
  fetch(`${sb.url}/pay/${id}/currency`, {
    method: "POST",
    body: new URLSearchParams({ cryptoCurrencyCode: code }),
    redirect: "manual",
  });

describe("SANDBOX_CURRENCY_LOCK=off", () => {
  it("every /x-sandbox/* route answers exactly as an unknown route", async () => {
    const inv = await create({ amount: 20 });
    const body = { accountId: ACCOUNT, id: inv.id, cryptoCurrencyCode: "BTC" };
    const lock = await api("POST", "/x-sandbox/invoice/lock-currency", body);
    const unknown = await api("POST", "/no-such-route", body);
    expect(lock.status).toBe(404);
    expect(lock.status).toBe(unknown.status);
    expect(lock.text).toBe(unknown.text);
    expect(lock.json).toEqual({ code: "exceptions.route.notFound", message: "No such route" });
    expect((await api("GET", "/x-sandbox/anything")).text).toBe(unknown.text);
    // Without the API key it is the same 401 every route gives.
    const keyless = await api("POST", "/x-sandbox/invoice/lock-currency", body, {
      "x-tenant-api-key": "",
    });
    expect(keyless.status).toBe(401);
    expect(sb.sandbox.state.invoices.get(inv.id)?.cryptoCurrencyCode).toBeNull();
  });
});

describe("hosted payment page", () => {
  it("lists the tenant's currencies for this invoice; those below the minimum cannot be chosen", async () => {
    const inv = await create({ amount: 5, number: "H-1" });
    const page = await (await fetch(inv.paymentPageUrl)).text();
    const record = sb.sandbox.state.invoices.get(inv.id)!;
    const options = payOptions(record);
    // 5 USD of BTC (0.00007693) is below BTC's 0.0001 minimum; 5 USDT_TRC20 reaches its 5.
    expect(options.find((o) => o.currency.code === "BTC")?.available).toBe(false);
    expect(options.find((o) => o.currency.code === "USDT_TRC20")?.available).toBe(true);
    expect(page).toContain("Invoice H-1");
    expect(page).toMatch(
      /value="BTC" disabled>[^<]*0\.00007693 BTC<br><small>Below the minimum of 0\.0001 BTC/,
    );
    expect(page).toMatch(/value="USDT_TRC20">[^<]*— 5 USDT</);
    // Payers read tickers, never internal codes; the page asks for no /favicon.ico (a 401).
    expect(page.replace(/value="[^"]*"/g, "")).not.toContain("USDT_TRC20");
    expect(page).toContain('<link rel="icon" href="data:,">');
    const refused = await choose(inv.id, "BTC");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("below the BTC minimum");
    expect(record.cryptoCurrencyCode).toBeNull();
    expect((await choose(inv.id, "DOGE")).status).toBe(400);
  });

  it("choosing locks the currency with no webhook, then shows amount, address, QR and live status", async () => {
    const inv = await create({ amount: 20 });
    const res = await choose(inv.id, "TRX");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/pay/${inv.id}`);
    const record = sb.sandbox.state.invoices.get(inv.id)!;
    expect(record.cryptoCurrencyCode).toBe("TRX");
    expect(record.cryptoAmountExpected?.toFixed()).toBe("166.666667");
    expect(record.status).toBe("created");
    expect(await webhooksFor(sb.url, inv.id)).toEqual([]);
    // The public read shows the choice (that is how the worker learns it).
    const read = await api("GET", `/invoice?accountId=${ACCOUNT}&id=${inv.id}`);
    expect(read.json.data).toMatchObject({ cryptoCurrencyCode: "TRX", address: record.address });
    expect(read.text).toContain('"cryptoAmountExpected":166.666667');
    const page = await (await fetch(inv.paymentPageUrl)).text();
    expect(page).toContain('data-testid="pay-amount">166.666667 TRX<');
    expect(page).toContain(`data-testid="pay-address">${record.address}<`);
    expect(page).toMatch(/<img src="data:image\/png;base64,iVBOR/);
    expect(page).toContain(`data-until="${record.expiresAt}"`);
    expect(page).not.toContain('name="cryptoCurrencyCode"');
    // A second choice is refused once the invoice left `created`.
    const status = await (await fetch(`${inv.paymentPageUrl}/status`)).json();
    expect(status).toMatchObject({ status: "created", cryptoCurrencyCode: "TRX", returnTo: null });
  });

  it("a choice after the invoice stopped taking payment is 409 and changes nothing", async () => {
    const inv = await create({ amount: 20 });
    await fetch(`${sb.url}/sandbox/invoices/${inv.id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "cancel" }),
    });
    const res = await choose(inv.id, "TRX");
    expect(res.status).toBe(409);
    expect(sb.sandbox.state.invoices.get(inv.id)?.cryptoCurrencyCode).toBeNull();
  });

  it("sends the payer back by outcome: success, failed or return URL", async () => {
    const urls = {
      successUrl: "https://shop.example/ok",
      failedUrl: "https://shop.example/failed",
      returnUrl: "https://shop.example/back",
    };
    const expected: Record<InvoiceRecord["status"], string | null> = {
      created: null,
      processing: null,
      paid: urls.successUrl,
      overpaid: urls.successUrl,
      failed: urls.failedUrl,
      suspended: urls.failedUrl,
      partially_paid: urls.failedUrl,
      cancelled: urls.returnUrl,
      expired: urls.returnUrl,
    };
    for (const [status, target] of Object.entries(expected)) {
      const inv = { ...urls, status } as unknown as InvoiceRecord;
      expect(returnTarget(inv), status).toBe(target);
    }
    expect(
      returnTarget({ status: "paid", successUrl: null } as unknown as InvoiceRecord),
    ).toBeNull();
    // The page itself links (and script-redirects) to the target once the outcome is known.
    const inv = await create({ amount: 20, ...urls });
    await fetch(`${sb.url}/sandbox/invoices/${inv.id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "paid" }),
    });
    const page = await (await fetch(inv.paymentPageUrl)).text();
    expect(page).toContain('id="return" href="https://shop.example/ok"');
    expect(await (await fetch(`${inv.paymentPageUrl}/status`)).json()).toMatchObject({
      status: "paid",
      returnTo: "https://shop.example/ok",
    });
  });

  it("an unknown invoice is a 404 page", async () => {
    expect((await fetch(`${sb.url}/pay/nope`)).status).toBe(404);
    expect((await fetch(`${sb.url}/pay/nope/status`)).status).toBe(404);
  });
});
