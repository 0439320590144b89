/**
 * @module pay-page
 * A minimal stand-in for the hosted payment page at /pay/:id (no API key): shows the invoice's
 * amount, status and, once a currency is locked, what to send where. Read-only.
 */
import type { Hono } from "hono";
import { plain } from "./decimal.ts";
import type { SandboxState } from "./state.ts";

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * Registers GET /pay/:id.
 * @example
 * registerPayPage(app, state);
 */
export function registerPayPage(app: Hono, state: SandboxState): void {
  app.get("/pay/:id", (c) => {
    const inv = state.invoices.get(c.req.param("id"));
    if (!inv) return c.html("<!doctype html><title>Not found</title><p>No such invoice.</p>", 404);
    const lock =
      inv.cryptoCurrencyCode && inv.cryptoAmountExpected && inv.address
        ? `<p>Send <b>${plain(inv.cryptoAmountExpected)} ${esc(inv.cryptoCurrencyCode)}</b> to <code>${esc(inv.address)}</code> (test network only).</p>`
        : "<p>No currency selected yet.</p>";
    return c.html(
      `<!doctype html><meta charset="utf-8"><title>Sandbox payment</title>` +
        `<h1>${plain(inv.amount)} ${esc(inv.fiatCurrencyCode)}</h1>` +
        `<p>Status: <b>${esc(inv.status)}</b></p>${lock}` +
        `<p><small>Sandbox hosted page. Settle it with POST /sandbox/invoices/${esc(inv.id)}/simulate.</small></p>`,
    );
  });
}
