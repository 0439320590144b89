/**
 * The demo shop has one name: the storefront's brand is the merchant name the worker gives the
 * widget (`DISPLAY_NAME`), so a shopper does not buy from "Cedar & Bean" and pay "Crypto
 * Checkout Demo". Every storefront page links the top-up page.
 */
import { describe, expect, it } from "vitest";
import { html } from "../../demo/storefront/html.ts";
import { layout } from "../../demo/storefront/layout.ts";
import { DEFAULT_ENDPOINTS, workerDemoVars } from "../../scripts/dev-vars.ts";

describe("the demo shop's name", () => {
  it("the worker names the merchant as the storefront does", () => {
    const page = layout({ title: "Shop", current: "shop", main: html`<h1>x</h1>` }).value;
    const name = workerDemoVars(DEFAULT_ENDPOINTS).DISPLAY_NAME ?? "";
    expect(name).toBe("Cedar & Bean");
    expect(page).toContain(`</span> ${name.replace("&", "&amp;")}</a>`);
    expect(page).toContain(`<title>Shop · Cedar &amp; Bean</title>`);
  });

  it("the navigation links the top-up page, marked current there", () => {
    const on = (current: "shop" | "topup") =>
      layout({ title: "T", current, main: html`` }).value.match(/<nav[^>]*>.*<\/nav>/s)?.[0] ?? "";
    expect(on("shop")).toContain('<a href="/topup" >Top up</a>');
    expect(on("topup")).toContain('<a href="/topup" aria-current="page">Top up</a>');
  });
});
