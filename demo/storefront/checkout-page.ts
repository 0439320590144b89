/**
 * @module
 * The checkout page: the order summary and the `<crypto-checkout>` widget (what a real shop
 * shows), beside three demo-only panels: the sandbox's *Simulate payment* actions, the demo
 * wallet (a test key the widget's *Pay from your wallet* finds, `demo-wallet/`) and the
 * merchant backend's view (the worker's ledger and the notifications received).
 */

import { label } from "../merchant/money.ts";
import type { Order } from "../merchant/orders.ts";
import { SIMULATE_ACTIONS } from "../merchant/sandbox-admin.ts";
import { html, jsonScript } from "./html.ts";
import { layout } from "./layout.ts";

const ACTION_LABELS: Record<(typeof SIMULATE_ACTIONS)[number], string> = {
  paid: "Paid in full",
  partial: "Partial",
  over: "Overpaid",
  processing: "Processing",
  suspend: "Suspend",
  expire: "Expire",
  fail: "Fail",
  cancel: "Cancel",
};

/** The page's inputs: the order, its freshly minted token, and the worker's public URL. */
export interface CheckoutPageInput {
  order: Order;
  token: string;
  workerUrl: string;
}

/**
 * @example
 * c.html(checkoutPage({ order, token, workerUrl }).value);
 */
export function checkoutPage({ order, token, workerUrl }: CheckoutPageInput) {
  const lines = order.lines.map(
    (line) =>
      html`<tr><th scope="row">${line.name}</th><td class="qty">× ${line.quantity}</td><td class="num">${label(line.lineTotal, order.currency)}</td></tr>`,
  );
  const buttons = SIMULATE_ACTIONS.filter((a) => a !== "partial").map(
    (action) =>
      html`<button type="button" class="button small" data-simulate="${action}" disabled>${ACTION_LABELS[action]}</button>`,
  );
  const main = html`<div class="checkout-grid">
  <div class="checkout-main">
    <section class="card summary" aria-labelledby="summary-title">
      <p class="eyebrow">Order <span data-testid="invoice-number">${order.invoiceNumber}</span></p>
      <h1 id="summary-title">Checkout</h1>
      <table class="lines">
        <caption class="visually-hidden">Items in order ${order.invoiceNumber}</caption>
        <tbody>${lines}</tbody>
        <tfoot><tr><th scope="row">Total</th><td></td><td class="num total">${label(order.amount, order.currency)}</td></tr></tfoot>
      </table>
    </section>
    <section class="card pay" aria-labelledby="pay-title">
      <h2 id="pay-title">Pay with crypto</h2>
      <crypto-checkout token="${token}" theme="light"></crypto-checkout>
    </section>
  </div>
  <aside class="tools" aria-label="Demo tools">
    <section class="card panel sandbox-panel" aria-labelledby="sandbox-title">
      <p class="eyebrow">Sandbox · the service's admin panel</p>
      <h2 id="sandbox-title">Simulate payment</h2>
      <p class="invoice-ref">Invoice <code id="current-invoice">waiting for the widget…</code>
        <span class="pill" id="current-status" data-status=""></span></p>
      <div class="button-row">${buttons}</div>
      <div class="partial-row">
        <label for="partial-amount">Partial amount <span class="hint" id="partial-unit"></span></label>
        <div class="input-row">
          <input id="partial-amount" name="partial-amount" inputmode="decimal" autocomplete="off" placeholder="e.g. half of what is due">
          <button type="button" class="button small ghost" id="partial-half" disabled>Half</button>
          <button type="button" class="button small" data-simulate="partial" disabled>Pay partially</button>
        </div>
      </div>
      <div class="button-row">
        <button type="button" class="button small ghost" id="test-webhook">Send test webhook</button>
      </div>
      <p class="panel-result" id="panel-result" role="status" aria-live="polite"></p>
    </section>
    <section class="card panel wallet-panel" aria-labelledby="wallet-title">
      <p class="eyebrow">Demo wallet · a test key made for this page, sandbox only</p>
      <h2 id="wallet-title">Demo wallet</h2>
      <p class="hint">Stands in for a wallet extension: the widget's <em>Pay from your wallet</em> lists it (EIP-6963). It starts on Ethereum, so the widget asks it to switch to Base Sepolia; it signs at once. Never send real money to it.</p>
      <dl class="facts">
        <dt>Address</dt><dd><code id="wallet-address">loading…</code></dd>
        <dt>Network</dt><dd id="wallet-chain">—</dd>
        <dt>Balance</dt><dd id="wallet-balance">—</dd>
      </dl>
      <div class="wallet-switches">
        <label><input type="checkbox" id="wallet-decline"> Decline the next signature</label>
        <label><input type="checkbox" id="wallet-refuse-switch"> Refuse to switch networks</label>
      </div>
      <div class="button-row">
        <button type="button" class="button small ghost" id="wallet-empty">Empty its USDC</button>
        <button type="button" class="button small ghost" id="wallet-refill">Refill 1,000 USDC</button>
      </div>
      <h3>Wallet activity</h3>
      <ol id="wallet-log" class="wallet-log" aria-live="polite"></ol>
    </section>
    <section class="card panel merchant-panel" aria-labelledby="merchant-title">
      <p class="eyebrow">Merchant backend · server-side</p>
      <h2 id="merchant-title">Order ledger</h2>
      <p class="hint">GET /v1/orders/${order.invoiceNumber} on the worker, with the merchant API token (never sent to this page).</p>
      <div id="ledger" class="ledger" aria-live="polite"><p class="muted">Loading…</p></div>
      <h3>Notifications received</h3>
      <p class="hint">Signed POSTs from the worker to /api/notifications, verified and deduplicated.</p>
      <ol id="notifications" class="notifications"><li class="muted">None yet.</li></ol>
    </section>
  </aside>
</div>
${jsonScript("order", { invoiceNumber: order.invoiceNumber, currency: order.currency, amount: order.amount })}`;
  return layout({
    title: `Checkout ${order.invoiceNumber}`,
    current: "checkout",
    main,
    head: html`<script src="${workerUrl}/widget.js" async></script>
<script type="module" src="/assets/checkout.js"></script>
<script type="module" src="/assets/demo-wallet.js"></script>`,
  });
}
