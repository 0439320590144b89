/**
 * @module pay-page
 * The hosted payment page at /pay/:id (no API key), behaving like the service's: it lists the
 * currencies available for this invoice (the tenant's list and minimums), the payer chooses one
 * (which locks it; as the service documents, choosing sends NO webhook), then sees the exact
 * amount, address, QR code, countdown and live status, and after the outcome is sent back:
 * `successUrl` after paid/overpaid, `failedUrl` after failed/suspended/partially_paid,
 * `returnUrl` after cancelled/expired (SDK 1.3.0).
 *
 * Routes: GET /pay/:id (the page), POST /pay/:id/currency (the payer's choice, a form post
 * answered 303 back to the page), GET /pay/:id/status (what the page polls; plain JSON).
 */
import type { Hono } from "hono";
import { newAddress } from "./addresses.ts";
import { CRYPTO_CURRENCIES } from "./currencies.ts";
import { Dec } from "./decimal.ts";
import { lockInvoice } from "./invoice-payment.ts";
import { expireDue } from "./invoice-status.ts";
import { type PayOption, payPageHtml } from "./pay-page-view.ts";
import { fiatToCrypto } from "./rates.ts";
import type { InvoiceRecord, InvoiceStatus, SandboxState } from "./state.ts";
import { plainJsonResponse, WireError } from "./wire.ts";

/**
 * Every currency of the tenant for this invoice: its amount, and whether it reaches the minimum.
 * @example
 * payOptions(inv).filter((o) => o.available).map((o) => o.currency.code);
 */
export function payOptions(inv: InvoiceRecord): PayOption[] {
  return CRYPTO_CURRENCIES.map((currency) => {
    const amount = fiatToCrypto(
      inv.amount,
      inv.fiatCurrencyCode,
      currency.code,
      currency.decimalPlaces,
    );
    const minimum = new Dec(currency.minDepositAmount);
    return { currency, amount, minimum, available: amount.gte(minimum) };
  });
}

const SUCCESS: readonly InvoiceStatus[] = ["paid", "overpaid"];
const FAILED: readonly InvoiceStatus[] = ["failed", "suspended", "partially_paid"];
const RETURN: readonly InvoiceStatus[] = ["cancelled", "expired"];

/**
 * Where the page sends the payer after an outcome, as the service does; null while the payer
 * should stay (no outcome yet, or the merchant gave no URL for it).
 * @example
 * returnTarget({ ...inv, status: "paid", successUrl: "https://shop.example/ok" }); // "https://shop.example/ok"
 */
export function returnTarget(inv: InvoiceRecord): string | null {
  if (SUCCESS.includes(inv.status)) return inv.successUrl;
  if (FAILED.includes(inv.status)) return inv.failedUrl;
  if (RETURN.includes(inv.status)) return inv.returnUrl;
  return null;
}

function find(state: SandboxState, id: string): InvoiceRecord | null {
  expireDue(state);
  return state.invoices.get(id) ?? null;
}

/**
 * The payer's choice: locks `code` on a `created` invoice. Throws `WireError` 400 for a
 * currency not offered or below its minimum, 409 once the invoice can no longer change.
 */
async function choose(state: SandboxState, inv: InvoiceRecord, code: string): Promise<void> {
  const option = payOptions(inv).find((o) => o.currency.code === code);
  if (!option) throw new WireError(400, "exceptions.invoice.currencyNotFound", "Unknown currency");
  if (!option.available) {
    throw new WireError(
      400,
      "exceptions.invoice.amountBelowMinimum",
      `This invoice is below the ${option.currency.code} minimum of ${option.minimum.toFixed()}`,
    );
  }
  const address = await newAddress(option.currency.network);
  // lockInvoice re-checks status and expiry after that await, synchronously.
  lockInvoice(state, inv, option.currency, address);
}

/**
 * Registers the hosted page's routes.
 * @example
 * registerPayPage(app, state);
 */
export function registerPayPage(app: Hono, state: SandboxState): void {
  const notFound = () =>
    new Response("<!doctype html><title>Not found</title><p>No such invoice.</p>", {
      status: 404,
      headers: { "content-type": "text/html; charset=utf-8" },
    });

  app.get("/pay/:id", async (c) => {
    const inv = find(state, c.req.param("id"));
    if (!inv) return notFound();
    const html = await payPageHtml(inv, payOptions(inv), returnTarget(inv), state.now(), null);
    return c.html(html, 200, { "cache-control": "no-store" });
  });

  app.post("/pay/:id/currency", async (c) => {
    const inv = find(state, c.req.param("id"));
    if (!inv) return notFound();
    const form = await c.req.formData().catch(() => null);
    const code = String(form?.get("cryptoCurrencyCode") ?? "");
    try {
      await choose(state, inv, code);
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      const html = await payPageHtml(
        inv,
        payOptions(inv),
        returnTarget(inv),
        state.now(),
        error.message,
      );
      return c.html(html, error.status as 400 | 409);
    }
    return c.redirect(`/pay/${encodeURIComponent(inv.id)}`, 303);
  });

  app.get("/pay/:id/status", (c) => {
    const inv = find(state, c.req.param("id"));
    if (!inv) return plainJsonResponse({ error: "not_found" }, 404);
    return plainJsonResponse({
      status: inv.status,
      cryptoCurrencyCode: inv.cryptoCurrencyCode,
      received: inv.cryptoAmountReceived,
      returnTo: returnTarget(inv),
    });
  });
}
