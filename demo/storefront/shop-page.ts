/**
 * @module
 * The shop page: the product grid and the cart. Prices shown here come from the catalog; the
 * cart total in the browser is only a preview, the backend recomputes it when the order is made.
 */
import { PRODUCTS } from "../merchant/catalog.ts";
import { label, SHOP_CURRENCIES } from "../merchant/money.ts";
import { html, jsonScript } from "./html.ts";
import { layout } from "./layout.ts";

/**
 * @example
 * c.html(shopPage().value);
 */
export function shopPage() {
  const cards = PRODUCTS.map(
    (p) => html`<li class="product card">
  <div class="product-art" style="--from:${p.art.from};--to:${p.art.to}" aria-hidden="true">${p.art.mark}</div>
  <div class="product-body">
    <h2 class="product-name">${p.name}</h2>
    <p class="product-blurb">${p.blurb}</p>
    <div class="product-foot">
      <span class="price" data-price-usd="${p.price.USD}" data-price-eur="${p.price.EUR}">${label(p.price.USD, "USD")}</span>
      <button type="button" class="button" data-add="${p.id}">Add to cart<span class="visually-hidden">: ${p.name}</span></button>
    </div>
  </div>
</li>`,
  );
  const currencies = SHOP_CURRENCIES.map(
    (code, i) =>
      html`<label class="segment"><input type="radio" name="currency" value="${code}" ${i === 0 ? html`checked` : ""}><span>${code}</span></label>`,
  );
  const main = html`<div class="shop-grid">
  <section aria-labelledby="shop-title">
    <div class="hero">
      <h1 id="shop-title">Small-batch coffee, paid in crypto</h1>
      <p>Pick a few things, choose USD or EUR, and pay with the crypto-checkout widget. Everything here runs against the local sandbox.</p>
    </div>
    <ul class="products" role="list">${cards}</ul>
  </section>
  <aside class="card cart" aria-labelledby="cart-title">
    <h2 id="cart-title">Your cart</h2>
    <fieldset class="segmented">
      <legend>Currency</legend>
      ${currencies}
    </fieldset>
    <ul class="cart-lines" id="cart-lines" role="list"></ul>
    <p class="cart-empty" id="cart-empty">Your cart is empty.</p>
    <div class="cart-total"><span>Total</span><strong id="cart-total" aria-live="polite">$0.00</strong></div>
    <button type="button" class="button primary wide" id="checkout-button" disabled>Pay with crypto</button>
    <p class="form-error" id="cart-error" role="alert"></p>
  </aside>
</div>
${jsonScript("catalog", PRODUCTS)}`;
  return layout({
    title: "Shop",
    current: "shop",
    main,
    head: html`<script type="module" src="/assets/shop.js"></script>`,
  });
}
