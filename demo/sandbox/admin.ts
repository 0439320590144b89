/**
 * @module admin
 * The sandbox's own helpers under /sandbox/* (no API key, CORS `*` for the demo's panel):
 * health, payment simulation, quote expiry, webhook log / redelivery / test sender, request log, faults,
 * balances, the merchant inbox and the x402 facilitator's controls (`admin-x402.ts`). None of
 * these exist on the real service.
 */
import type { Hono } from "hono";
import { cors } from "hono/cors";
import { registerX402Admin } from "./admin-x402.ts";
import { listBalances } from "./balances.ts";
import { cryptoCurrency } from "./currencies.ts";
import { decimalPlaces } from "./decimal.ts";
import { depositView, findDepositByRef, simulateDeposit } from "./deposits.ts";
import { inScope } from "./fault-scope.ts";
import { addFault } from "./faults.ts";
import {
  optionalBool,
  optionalString,
  optionalUrl,
  readAdminAmount,
  requiredString,
} from "./fields.ts";
import { simulateInvoice } from "./invoice-payment.ts";
import { invoiceView } from "./invoice-status.ts";
import { findInvoiceByRef } from "./invoices.ts";
import { registerMerchantInbox } from "./merchant-inbox.ts";
import { queryRequests } from "./request-log.ts";
import { sampleInvoiceData } from "./sample-invoice.ts";
import type { SandboxState } from "./state.ts";
import { redeliver, sendTestWebhook } from "./webhooks.ts";
import {
  dataResponse,
  invalidBody,
  invalidQuery,
  plainJsonResponse,
  readJsonObject,
} from "./wire.ts";
import { expireQuote, findQuoteByRef, quoteView } from "./withdrawal-quotes.ts";
import { findWithdrawalByRef, simulateWithdrawal, withdrawalView } from "./withdrawals.ts";

const noContent = () => new Response(null, { status: 204 });

/** The required `orderIdPrefix` query of the truth views (an empty prefix would list all). */
function orderIdPrefix(url: string): string {
  const prefix = new URL(url).searchParams.get("orderIdPrefix");
  if (!prefix) throw invalidQuery("orderIdPrefix is required");
  return prefix;
}

async function optionalJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.clone().text();
  return text.trim() === "" ? {} : readJsonObject(request);
}

/** At most this many extra delivery headers, each value at most `MAX_HEADER_VALUE` characters. */
const MAX_HEADERS = 8;
const MAX_HEADER_VALUE = 256;

/**
 * Header names a delivery's extra headers may not carry (any case): the ones the sandbox writes
 * itself (the body's type and length, the signature) and the ones that frame the request or the
 * keep-alive connection (a `transfer-encoding` would make every delivery a malformed request).
 */
const RESERVED_HEADERS =
  /^(content-type|content-length|x-webhook-signature|transfer-encoding|connection|keep-alive|upgrade|expect|te|trailer)$/i;

/** An optional object of header names to string values; absent or null gives none. */
function readHeaders(body: Record<string, unknown>): Record<string, string> {
  const v = body.headers;
  if (v === undefined || v === null) return {};
  const entries = typeof v === "object" && !Array.isArray(v) ? Object.entries(v) : null;
  if (
    entries === null ||
    entries.length > MAX_HEADERS ||
    !entries.every(
      ([k, x]) =>
        /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/.test(k) &&
        !RESERVED_HEADERS.test(k) &&
        typeof x === "string" &&
        x.length <= MAX_HEADER_VALUE &&
        !/[\r\n\0]/.test(x),
    )
  ) {
    throw invalidBody(
      `headers must be an object of at most ${MAX_HEADERS} header names to strings (≤ ${MAX_HEADER_VALUE} characters, no line breaks), none of content-type, content-length, x-webhook-signature or the connection's own (transfer-encoding, connection, …)`,
    );
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/**
 * Registers every /sandbox/* route on `app`.
 * @example
 * registerAdmin(app, state);
 */
export function registerAdmin(app: Hono, state: SandboxState): void {
  app.use("/sandbox/*", cors({ origin: "*" }));
  app.get("/sandbox/health", () => plainJsonResponse({ ok: true }));
  // The tenant's default webhook destination, changeable at run time: the bench points it at
  // the runtime's own socket, past `wrangler dev`'s proxy. An absent or null `url` stops sending.
  app.put("/sandbox/webhook-url", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const url = optionalUrl(body, "url");
    // `all`: also over objects' own webhookUrl, until the next PUT (validated before any change).
    const all = optionalBool(body, "all") ?? false;
    // `headers`: extra request headers of every delivery, until the next PUT (the bench sends
    // the load past `wrangler dev`'s assets router with one).
    const headers = readHeaders(body);
    state.options.webhookUrl = url;
    state.webhookRedirect = all ? url : null;
    state.webhookHeaders = headers;
    return dataResponse({ url, all: state.webhookRedirect !== null, headers });
  });

  app.post("/sandbox/invoices/:ref/simulate", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const inv = findInvoiceByRef(state, c.req.param("ref"));
    const action = requiredString(body, "action");
    const amount = readAdminAmount(body, "amount");
    const processingFirst = optionalBool(body, "processingFirst") ?? true;
    await simulateInvoice(state, inv, { action, amount, processingFirst });
    return dataResponse(invoiceView(inv));
  });
  app.post("/sandbox/deposits/:ref/simulate", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const dep = findDepositByRef(state, c.req.param("ref"));
    const action = requiredString(body, "action");
    const amount = readAdminAmount(body, "amount");
    const processingFirst = optionalBool(body, "processingFirst") ?? true;
    await simulateDeposit(state, dep, { action, amount, processingFirst });
    return dataResponse(depositView(dep));
  });
  app.post("/sandbox/withdrawals/:ref/simulate", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const w = findWithdrawalByRef(state, c.req.param("ref"));
    const action = requiredString(body, "action");
    const processingFirst = optionalBool(body, "processingFirst") ?? true;
    await simulateWithdrawal(state, w, { action, processingFirst });
    return dataResponse(withdrawalView(w));
  });
  app.post("/sandbox/withdrawal-quotes/:ref/expire", (c) =>
    dataResponse(quoteView(expireQuote(state, findQuoteByRef(state, c.req.param("ref"))))),
  );

  // Read-only views of the service's truth, for tests that check a client converged to it:
  // the object exactly as `GET /invoice` / `GET /withdrawal` answer it, but never faulted
  // (faults match API paths only) and selected by orderId prefix (one order's attempts).
  app.get("/sandbox/invoices", (c) => {
    const prefix = orderIdPrefix(c.req.url);
    const list = [...state.invoices.values()].filter((i) => i.orderId?.startsWith(prefix));
    return dataResponse(list.map(invoiceView));
  });
  app.get("/sandbox/withdrawals", (c) => {
    const prefix = orderIdPrefix(c.req.url);
    const list = [...state.withdrawals.values()].filter((w) => w.orderId.startsWith(prefix));
    return dataResponse(list.map(withdrawalView));
  });

  app.get("/sandbox/webhooks", (c) => {
    const q = new URL(c.req.url).searchParams;
    const [objectId, orderId, event] = [q.get("objectId"), q.get("orderId"), q.get("event")];
    const prefix = q.get("orderIdPrefix");
    const list = state.webhooks.filter(
      (w) =>
        (!objectId || w.objectId === objectId) &&
        (!orderId || w.orderId === orderId) &&
        (!prefix || w.orderId?.startsWith(prefix)) &&
        (!event || w.event === event),
    );
    return dataResponse(list);
  });
  app.post("/sandbox/webhooks/:id/redeliver", async (c) => {
    const body = await optionalJsonObject(c.req.raw);
    return dataResponse(await redeliver(state, c.req.param("id"), optionalUrl(body, "url")));
  });
  app.post("/sandbox/test-webhook", async (c) => {
    const body = await optionalJsonObject(c.req.raw);
    const data = body.data ?? null;
    if (data !== null && (typeof data !== "object" || Array.isArray(data))) {
      throw invalidBody("data must be an object");
    }
    const url = optionalUrl(body, "url");
    const event = optionalString(body, "event");
    const rec = await sendTestWebhook(state, {
      url,
      event,
      // By default a whole paid invoice, as real deliveries carry (never a partial object).
      data:
        (data as Record<string, unknown> | null) ??
        (await sampleInvoiceData(state, new URL(c.req.url).origin)),
      sample: data === null && event === null,
    });
    return dataResponse(rec);
  });

  app.get("/sandbox/requests", (c) =>
    dataResponse(queryRequests(state, new URL(c.req.url).searchParams)),
  );
  app.get("/sandbox/in-flight", (c) => {
    // `?scope=` counts one order's requests only (and those whose order is not read yet).
    const scope = new URL(c.req.url).searchParams.get("scope");
    const orders = [...state.workInFlight.values()];
    const requests = scope
      ? orders.filter((o) => o === undefined || inScope(o, scope)).length
      : orders.length;
    return dataResponse({ requests });
  });
  app.delete("/sandbox/requests", () => {
    state.requests = [];
    return noContent();
  });

  app.post("/sandbox/faults", async (c) => {
    const fault = addFault(state, await readJsonObject(c.req.raw));
    return dataResponse({ id: fault.id }, 201);
  });
  app.get("/sandbox/faults", () => dataResponse(state.faults));
  app.delete("/sandbox/faults", (c) => {
    // `?scope=` clears one order's faults only (clients sharing the sandbox keep theirs).
    const scope = new URL(c.req.url).searchParams.get("scope");
    state.faults = scope ? state.faults.filter((f) => f.scope !== scope) : [];
    return noContent();
  });

  app.get("/sandbox/balances", () => dataResponse(listBalances(state)));
  app.post("/sandbox/balances", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const cur = cryptoCurrency(requiredString(body, "cryptoCurrencyCode"));
    if (!cur) throw invalidBody("Unknown cryptoCurrencyCode");
    const amount = readAdminAmount(body, "amount");
    if (amount === null || decimalPlaces(amount) > cur.decimalPlaces) {
      throw invalidBody(`amount is required with at most ${cur.decimalPlaces} decimal places`);
    }
    state.balances.set(cur.code, amount);
    return dataResponse(listBalances(state));
  });

  registerMerchantInbox(app, state);
  registerX402Admin(app, state);
}
