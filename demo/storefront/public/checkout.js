/**
 * @module
 * The checkout page's demo panels. The sandbox panel follows the widget through the
 * `checkout:status` event (`event.detail` is the checkout snapshot) to know the current
 * attempt's orderId, and simulates payments on it; the merchant panel refreshes on those same
 * events (coalesced) and polls the backend slowly for what no event announces.
 */
import { postJson, refresher } from "./dom.js";
import { halfOf } from "./money.js";
import { renderLedger, renderNotifications } from "./render.js";
import { partialRow } from "./sandbox-panel.js";
import { watchWidgetLoad } from "./widget-load.js";

const order = JSON.parse(document.getElementById("order").textContent);
const widget = document.querySelector("crypto-checkout");
watchWidgetLoad(widget);
const invoiceRef = document.getElementById("current-invoice");
const statusPill = document.getElementById("current-status");
const result = document.getElementById("panel-result");
const partialInput = document.getElementById("partial-amount");
const partialUnit = document.getElementById("partial-unit");
const halfButton = document.getElementById("partial-half");
let snapshot = null;
let partialKey = "";

widget.addEventListener("checkout:status", (event) => {
  snapshot = event.detail;
  const attempt = snapshot?.attempt;
  invoiceRef.textContent = attempt?.orderId ?? "no invoice yet";
  statusPill.textContent = (attempt?.status ?? "").replace(/_/g, " ");
  statusPill.dataset.status = attempt?.status ?? "";
  const row = partialRow(snapshot);
  partialUnit.textContent = row.hint;
  halfButton.disabled = !row.half;
  // An amount typed for another attempt, another remaining or an open attempt is stale.
  if (row.key !== partialKey) partialInput.value = "";
  partialKey = row.key;
  for (const button of document.querySelectorAll("[data-simulate]"))
    button.disabled = !attempt?.orderId;
});

function show(text, ok) {
  result.textContent = text;
  result.dataset.ok = String(ok);
}

function describe(status, body) {
  if (status >= 200 && status < 300)
    return body?.data?.status ? `status now ${body.data.status}` : "done";
  return body?.error?.message ?? body?.message ?? `HTTP ${status}`;
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-simulate]");
  if (!button || !snapshot?.attempt?.orderId) return;
  const action = button.dataset.simulate;
  const ref = snapshot.attempt.orderId;
  const amount = action === "partial" ? partialInput.value.trim() || undefined : undefined;
  show(`Simulating “${action}” on ${ref}…`, true);
  try {
    const relayed = await postJson("/api/sandbox/simulate", { ref, action, amount });
    const { status, body } = relayed.status === 200 ? relayed.body : relayed;
    show(`Sandbox: ${action} on ${ref}: ${describe(status, body)}`, status >= 200 && status < 300);
  } catch (error) {
    show(`Sandbox unreachable: ${error.message}`, false);
  }
});

halfButton.addEventListener("click", () => {
  partialInput.value = halfOf(snapshot?.attempt?.payment?.remaining);
  partialInput.focus();
});

document.getElementById("test-webhook").addEventListener("click", async () => {
  show("Sending a test webhook…", true);
  try {
    const relayed = await postJson("/api/sandbox/test-webhook", {});
    const { status, body } = relayed.status === 200 ? relayed.body : relayed;
    const delivery = body?.data;
    const answer = delivery?.attempts?.at(-1)?.status;
    if (delivery?.url) {
      show(
        `Test webhook sent to ${delivery.url}: answered ${answer ?? "nothing"}`,
        Boolean(delivery.delivered),
      );
    } else {
      show(`Test webhook: ${describe(status, body)}`, status >= 200 && status < 300);
    }
  } catch (error) {
    show(`Sandbox unreachable: ${error.message}`, false);
  }
});

const ledger = document.getElementById("ledger");
const notifications = document.getElementById("notifications");
let lastView = "";
const merchantView = refresher(async () => {
  const response = await fetch(`/api/orders/${encodeURIComponent(order.invoiceNumber)}/merchant`);
  if (!response.ok) return;
  const text = await response.text();
  if (text === lastView) return; // keep <details> open and avoid flicker
  lastView = text;
  const view = JSON.parse(text);
  renderLedger(ledger, view.ledger);
  renderNotifications(notifications, view.notifications);
});
widget.addEventListener("checkout:status", merchantView.refresh);
