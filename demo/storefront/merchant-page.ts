/**
 * @module
 * The merchant view: every order of this demo run with the worker's ledger, and every
 * notification the backend received (the page polls the backend once a second). Also the
 * page for an unknown order.
 */
import { html } from "./html.ts";
import { layout } from "./layout.ts";

/**
 * @example
 * c.html(merchantPage().value);
 */
export function merchantPage() {
  const main = html`<div class="merchant-grid">
  <section class="card" aria-labelledby="orders-title">
    <p class="eyebrow">Merchant backend</p>
    <h1 id="orders-title">Orders</h1>
    <p class="hint">Orders created in this demo run, with the ledger the worker keeps for each (GET /v1/orders/:invoiceNumber).</p>
    <div id="orders" aria-live="polite"><p class="muted">Loading…</p></div>
  </section>
  <section class="card" aria-labelledby="inbox-title">
    <p class="eyebrow">POST /api/notifications</p>
    <h2 id="inbox-title">Notifications</h2>
    <p class="hint">Signed by the worker (x-checkout-signature), verified here, deduplicated on id. <span id="rejected"></span></p>
    <ol id="notifications" class="notifications"><li class="muted">None yet.</li></ol>
  </section>
</div>`;
  return layout({
    title: "Merchant view",
    current: "merchant",
    main,
    head: html`<script type="module" src="/assets/merchant.js"></script>`,
  });
}

/**
 * The page for an unknown invoice number (orders live in memory: a restarted demo forgets them).
 *
 * @example
 * c.html(notFoundPage().value, 404);
 */
export function notFoundPage() {
  return layout({
    title: "Order not found",
    current: "checkout",
    main: html`<section class="card narrow">
  <h1>Order not found</h1>
  <p class="muted">This demo keeps orders in memory, so they are gone after a restart.</p>
  <p><a class="button primary" href="/">Back to the shop</a></p>
</section>`,
  });
}
