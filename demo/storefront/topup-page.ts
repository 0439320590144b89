/**
 * @module
 * The top-up page: a customer's wallet credit through a standalone deposit
 * (`<crypto-checkout mode="deposit">`), beside a demo-only panel that settles the deposit in
 * the sandbox (the admin panel's *Simulate payment* for deposits).
 */
import { html, jsonScript } from "./html.ts";
import { layout } from "./layout.ts";

/** The page's inputs: the top-up id, its minted token, and where the worker and sandbox are. */
export interface TopUpPageInput {
  topUpId: string;
  token: string;
  workerUrl: string;
  sandboxUrl: string;
}

/**
 * @example
 * c.html(topUpPage({ topUpId, token, workerUrl, sandboxUrl }).value);
 */
export function topUpPage({ topUpId, token, workerUrl, sandboxUrl }: TopUpPageInput) {
  const main = html`<div class="checkout-grid">
  <div class="checkout-main">
    <section class="card pay" aria-labelledby="topup-title">
      <p class="eyebrow">Top-up <span data-testid="topup-id">${topUpId}</span></p>
      <h1 id="topup-title">Add credit with crypto</h1>
      <crypto-checkout mode="deposit" token="${token}" theme="light"></crypto-checkout>
    </section>
  </div>
  <aside class="tools" aria-label="Demo tools">
    <section class="card panel sandbox-panel" aria-labelledby="sandbox-title">
      <p class="eyebrow">Sandbox · the service's admin panel</p>
      <h2 id="sandbox-title">Simulate a deposit</h2>
      <label for="deposit-amount">Amount received</label>
      <div class="input-row">
        <input id="deposit-amount" inputmode="decimal" autocomplete="off" value="100">
        <button type="button" class="button small" id="deposit-complete">Deposit arrives</button>
      </div>
      <p class="panel-result" id="panel-result" role="status" aria-live="polite"></p>
    </section>
  </aside>
</div>
${jsonScript("topup", { sandboxUrl, orderId: `cc-${topUpId}` })}
<script type="module">
  import { watchWidgetLoad } from "/assets/widget-load.js";
  watchWidgetLoad(document.querySelector("crypto-checkout"));
  const { sandboxUrl, orderId } = JSON.parse(document.getElementById("topup").textContent);
  const result = document.getElementById("panel-result");
  document.getElementById("deposit-complete").addEventListener("click", async () => {
    const amount = document.getElementById("deposit-amount").value.trim();
    const res = await fetch(sandboxUrl + "/sandbox/deposits/" + encodeURIComponent(orderId) + "/simulate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "completed", amount }),
    });
    result.textContent = res.ok ? "Deposit of " + amount + " simulated." : "Sandbox answered " + res.status;
  });
</script>`;
  return layout({
    title: `Top-up ${topUpId}`,
    current: "topup",
    main,
    head: html`<script src="${workerUrl}/widget.js" async></script>`,
  });
}
