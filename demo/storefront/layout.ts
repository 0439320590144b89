/**
 * @module
 * The page frame shared by the storefront's pages: head, the shop header, the sandbox banner.
 */
import { DEMO_DISPLAY_NAME } from "../../scripts/dev-vars.ts";
import { type Html, html } from "./html.ts";

/** What a page puts in the frame. */
export interface PageParts {
  title: string;
  /** Which nav entry is current. */
  current: "shop" | "checkout" | "topup" | "merchant";
  main: Html;
  /** Extra head markup (scripts). */
  head?: Html;
}

/**
 * Renders a full HTML document.
 *
 * @example
 * c.html(layout({ title: "Shop", current: "shop", main: html`<h1>Hi</h1>` }).value);
 */
export function layout(parts: PageParts): Html {
  const nav = (href: string, name: PageParts["current"], text: string) =>
    html`<a href="${href}" ${parts.current === name ? html`aria-current="page"` : ""}>${text}</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title} · ${DEMO_DISPLAY_NAME}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/style.css">
${parts.head ?? ""}
</head>
<body>
<header>
<!-- Inside the header landmark: axe \`region\` wants every part of the page in one. -->
<p class="banner" role="note">Demo store · sandbox mode: test money only, nothing is charged.</p>
<div class="topbar">
  <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">C&amp;B</span> ${DEMO_DISPLAY_NAME}</a>
  <nav aria-label="Main">${nav("/", "shop", "Shop")}${nav("/topup", "topup", "Top up")}${nav("/merchant", "merchant", "Merchant view")}</nav>
</div>
</header>
<main id="main">${parts.main}</main>
<footer class="footer">Payments by <strong>crypto-checkout</strong> · a demo of the widget, the worker and the sandbox.</footer>
</body>
</html>`;
}
