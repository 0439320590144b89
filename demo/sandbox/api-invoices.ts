/**
 * @module api-invoices
 * Public invoice routes (POST /invoice, GET /invoice, GET /invoice/list, POST /invoice/cancel)
 * and the SANDBOX EXTENSION POST /x-sandbox/invoice/lock-currency, which the public API lacks
 * (registered only with the `currencyLock` option, `SANDBOX_CURRENCY_LOCK=on`).
 */
import type { Hono } from "hono";
import { newAddress } from "./addresses.ts";
import { requiredString } from "./fields.ts";
import { lockableCurrency, lockInvoice } from "./invoice-payment.ts";
import { expireDue, INVOICE_STATUSES, invoiceView } from "./invoice-status.ts";
import { cancelInvoice, createInvoice, findInvoice } from "./invoices.ts";
import { listPage } from "./list-page.ts";
import type { SandboxState } from "./state.ts";
import { dataResponse, readJsonObject } from "./wire.ts";

/**
 * Registers the invoice routes.
 * @example
 * registerInvoices(app, state);
 */
export function registerInvoices(app: Hono, state: SandboxState): void {
  app.post("/invoice", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const { invoice, created } = createInvoice(state, body, new URL(c.req.url).origin);
    return dataResponse(invoiceView(invoice), created ? 201 : 200);
  });
  app.get("/invoice", (c) =>
    dataResponse(invoiceView(findInvoice(state, new URL(c.req.url).searchParams))),
  );
  app.get("/invoice/list", (c) => {
    expireDue(state);
    const q = new URL(c.req.url).searchParams;
    return listPage(state, q, INVOICE_STATUSES, state.invoices.values(), invoiceView);
  });
  app.post("/invoice/cancel", async (c) => {
    const inv = findInvoice(state, new URL(c.req.url).searchParams);
    await cancelInvoice(state, inv);
    return new Response(null, { status: 204 });
  });

  // SANDBOX EXTENSION: not part of the public API (the payer locks a currency on the hosted page).
  // Off, the route does not exist: the app's not-found answer is the real service's.
  if (!state.options.currencyLock) return;
  app.post("/x-sandbox/invoice/lock-currency", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const accountId = requiredString(body, "accountId");
    const id = requiredString(body, "id");
    const cur = lockableCurrency(requiredString(body, "cryptoCurrencyCode"));
    const inv = findInvoice(state, new URLSearchParams({ accountId, id }));
    const address = await newAddress(cur.network);
    expireDue(state);
    return dataResponse(invoiceView(lockInvoice(state, inv, cur, address)));
  });
}
