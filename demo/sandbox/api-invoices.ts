/**
 * @module api-invoices
 * Public invoice routes (POST /invoice, GET /invoice, GET /invoice/list, POST /invoice/cancel)
 * and the SANDBOX EXTENSION POST /x-sandbox/invoice/lock-currency, which the public API lacks
 * (registered only with the `currencyLock` option, `SANDBOX_CURRENCY_LOCK=on`).
 */
import type { Hono } from "hono";
import { requireAccount } from "./accounts.ts";
import { newAddress } from "./addresses.ts";
import { queryInt, requiredString } from "./fields.ts";
import { lockableCurrency, lockInvoice } from "./invoice-payment.ts";
import { expireDue, INVOICE_STATUSES, invoiceView } from "./invoice-status.ts";
import { cancelInvoice, createInvoice, findInvoice } from "./invoices.ts";
import type { InvoiceStatus, SandboxState } from "./state.ts";
import { dataResponse, invalidQuery, listResponse, readJsonObject } from "./wire.ts";

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
    const q = new URL(c.req.url).searchParams;
    const accountId = q.get("accountId");
    if (!accountId) throw invalidQuery("accountId is required");
    requireAccount(state, accountId);
    const status = q.get("status");
    if (status && !INVOICE_STATUSES.includes(status as InvoiceStatus)) {
      throw invalidQuery(`status must be one of ${INVOICE_STATUSES.join(", ")}`);
    }
    const page = queryInt(q, "page", 1, 1_000_000);
    const limit = queryInt(q, "limit", 20, 100);
    expireDue(state);
    const all = [...state.invoices.values()]
      .reverse()
      .filter((i) => !status || i.status === status);
    const slice = all.slice((page - 1) * limit, page * limit);
    return listResponse(slice.map(invoiceView), all.length, page, limit);
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
