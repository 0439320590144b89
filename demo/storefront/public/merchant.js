/**
 * @module
 * The merchant view: polls the backend every few seconds (and when the tab comes back into
 * view) for orders (with the worker's ledger) and received notifications.
 */
import { h, refresher } from "./dom.js";
import { label } from "./money.js";
import { renderLedger, renderNotifications } from "./render.js";

const orders = document.getElementById("orders");
const notifications = document.getElementById("notifications");
const rejected = document.getElementById("rejected");
let last = "";

/** No widget on this page to announce changes: a steady, unhurried poll. */
const MERCHANT_POLL_MS = 3000;

const orderList = refresher(
  async () => {
    const response = await fetch("/api/merchant");
    if (!response.ok) return;
    const text = await response.text();
    if (text === last) return;
    last = text;
    const view = JSON.parse(text);
    if (!view.orders.length) {
      orders.replaceChildren(
        h("p", { class: "muted" }, "No orders yet. ", h("a", { href: "/" }, "Go shopping"), "."),
      );
    } else {
      orders.replaceChildren(
        ...view.orders.map(({ order, ledger }) => {
          const box = h("div", { class: "ledger" });
          renderLedger(box, ledger);
          return h(
            "article",
            { class: "order-card" },
            h(
              "header",
              { class: "order-head" },
              h(
                "h2",
                {},
                h(
                  "a",
                  { href: `/checkout/${order.invoiceNumber}` },
                  `Order ${order.invoiceNumber}`,
                ),
              ),
              h("strong", {}, label(order.amount, order.currency)),
            ),
            box,
          );
        }),
      );
    }
    renderNotifications(notifications, view.notifications);
    rejected.textContent = view.rejected ? `${view.rejected} rejected (bad signature).` : "";
  },
  { slowMs: MERCHANT_POLL_MS },
);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") orderList.refresh();
});
