/**
 * @module
 * The shop page: cart in localStorage, currency switch, preview total in integer cents, and
 * "Pay with crypto" → the backend creates the order (and its price) → the checkout page.
 */
import { h, postJson } from "./dom.js";
import { fromCents, label, toCents } from "./money.js";

const catalog = JSON.parse(document.getElementById("catalog").textContent);
const byId = new Map(catalog.map((p) => [p.id, p]));
const KEY = "cedar-bean-cart";

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (saved && (saved.currency === "USD" || saved.currency === "EUR") && saved.items)
      return saved;
  } catch {}
  return { currency: "USD", items: {} };
}
let cart = load();
const save = () => localStorage.setItem(KEY, JSON.stringify(cart));

const lines = document.getElementById("cart-lines");
const total = document.getElementById("cart-total");
const empty = document.getElementById("cart-empty");
const button = document.getElementById("checkout-button");
const errorBox = document.getElementById("cart-error");

function setQuantity(id, quantity) {
  if (quantity <= 0) delete cart.items[id];
  else cart.items[id] = Math.min(quantity, 20);
  save();
  render();
}

function render() {
  const { currency } = cart;
  for (const input of document.querySelectorAll('input[name="currency"]'))
    input.checked = input.value === currency;
  for (const price of document.querySelectorAll("[data-price-usd]")) {
    price.textContent = label(
      currency === "USD" ? price.dataset.priceUsd : price.dataset.priceEur,
      currency,
    );
  }
  let sum = 0n;
  const rows = [];
  for (const [id, quantity] of Object.entries(cart.items)) {
    const product = byId.get(id);
    if (!product) continue;
    const lineCents = toCents(product.price[currency]) * BigInt(quantity);
    sum += lineCents;
    rows.push(
      h(
        "li",
        { class: "cart-line" },
        h("span", { class: "cart-name" }, product.name),
        h(
          "span",
          { class: "stepper" },
          h(
            "button",
            {
              type: "button",
              class: "step",
              "aria-label": `Remove one ${product.name}`,
              "data-step": id,
              "data-delta": "-1",
            },
            "−",
          ),
          h("span", { class: "cart-qty", "aria-label": `Quantity ${quantity}` }, quantity),
          h(
            "button",
            {
              type: "button",
              class: "step",
              "aria-label": `Add one ${product.name}`,
              "data-step": id,
              "data-delta": "1",
            },
            "+",
          ),
        ),
        h("span", { class: "num" }, label(fromCents(lineCents), currency)),
      ),
    );
  }
  lines.replaceChildren(...rows);
  empty.hidden = rows.length > 0;
  total.textContent = label(fromCents(sum), currency);
  button.disabled = rows.length === 0;
}

document.addEventListener("click", (event) => {
  const add = event.target.closest("[data-add]");
  if (add) setQuantity(add.dataset.add, (cart.items[add.dataset.add] ?? 0) + 1);
  const step = event.target.closest("[data-step]");
  if (step)
    setQuantity(
      step.dataset.step,
      (cart.items[step.dataset.step] ?? 0) + Number(step.dataset.delta),
    );
});

for (const input of document.querySelectorAll('input[name="currency"]')) {
  input.addEventListener("change", () => {
    cart.currency = input.value;
    save();
    render();
  });
}

button.addEventListener("click", async () => {
  button.disabled = true;
  errorBox.textContent = "";
  const items = Object.entries(cart.items).map(([productId, quantity]) => ({
    productId,
    quantity,
  }));
  try {
    const { status, body } = await postJson("/api/orders", { currency: cart.currency, items });
    if (status !== 201) throw new Error(body?.error?.message ?? `HTTP ${status}`);
    cart = { currency: cart.currency, items: {} };
    save();
    location.assign(body.checkoutUrl);
  } catch (error) {
    errorBox.textContent = `Could not create the order: ${error.message}`;
    button.disabled = false;
  }
});

// The payer comes back here from the widget's "Back to the shop" or from the service's payment
// page (after paid, or after a cancelled/expired attempt): say what the order's ledger says.
const returned = new URLSearchParams(location.search).get("order");
if (returned && /^[A-Za-z0-9._-]{1,64}$/.test(returned)) {
  fetch(`/api/orders/${encodeURIComponent(returned)}/merchant`)
    .then((response) => (response.ok ? response.json() : null))
    .then((view) => {
      const state = view?.ledger?.body?.data?.state;
      const toast =
        state === "paid"
          ? h(
              "p",
              { class: "toast", role: "status" },
              `Thank you! Order ${returned} is paid and on its way.`,
            )
          : h(
              "p",
              { class: "toast pending", role: "status" },
              `Order ${returned} is not paid yet. `,
              h("a", { href: `/checkout/${encodeURIComponent(returned)}` }, "Back to its checkout"),
            );
      document.querySelector(".hero").append(toast);
    })
    .catch(() => {});
}
render();
