/**
 * @module
 * `<crypto-checkout>`: the custom element, rendered in an open Shadow DOM so storefront CSS
 * cannot break it and it cannot break the storefront. Also `mount()` for programmatic use.
 *
 * Attributes: `token` (required), `api` (worker origin; default: where the script came from),
 * `locale` (default: the page's `<html lang>`, then the browser's languages), `theme` (`light` | `dark`; default: the OS;
 * changing it only restyles), `mode` (`deposit` for a top-up; default: a payment).
 */
import { h, render } from "preact";
import { createApi } from "./api.ts";
import { Checkout } from "./checkout.tsx";
import type { Emit } from "./events.ts";
import { loadTranslator, type Translator, translator } from "./i18n/index.ts";
import css from "./styles.css?inline";
import { TopUp } from "./topup.tsx";

/** Options of `mount()`. */
export interface MountOptions {
  token: string | null;
  api: string;
  locale?: string | null;
  theme?: "light" | "dark" | null;
  /** `deposit` shows a top-up (standalone deposit address) instead of a payment. */
  mode?: "invoice" | "deposit" | null;
}

/**
 * Renders the checkout into `host`'s shadow root (created if needed); returns an unmount function.
 *
 * @example
 * const unmount = mount(document.querySelector("#pay")!, { token, api: "https://pay.example.com" });
 */
export function mount(host: HTMLElement, options: MountOptions): () => void {
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  // In order of preference; the first with a catalogue wins (`i18n/resolve.ts`).
  const requested = [options.locale, document.documentElement.lang, ...navigator.languages];
  if (options.theme && host.getAttribute("theme") !== options.theme)
    host.setAttribute("theme", options.theme);
  if (!root.querySelector("style")) {
    const style = document.createElement("style");
    style.textContent = css;
    root.append(style);
  }
  let mountPoint = root.querySelector<HTMLElement>(".cc-root");
  if (!mountPoint) {
    mountPoint = document.createElement("div");
    mountPoint.className = "cc-root";
    root.append(mountPoint);
  }
  const emit: Emit = (name, detail) =>
    host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  const target = mountPoint;
  const api = createApi(options.api);
  let live = true;
  const draw = (i18n: Translator) => {
    if (!live) return;
    target.setAttribute("lang", i18n.lang);
    target.setAttribute("dir", i18n.dir);
    host.setAttribute("dir", i18n.dir);
    const view = options.mode === "deposit" ? TopUp : Checkout;
    render(h(view, { api, token: options.token, i18n, emit }), target);
  };
  const first = translator(requested);
  draw(first);
  // Another catalogue may need loading first; the checkout keeps its state across the redraw.
  void loadTranslator(requested, options.api).then((i18n) => {
    if (i18n.lang !== first.lang || i18n.locale !== first.locale) draw(i18n);
  });
  return () => {
    live = false;
    render(null, target);
  };
}

/**
 * Defines `<crypto-checkout>` once (a second script load is harmless).
 *
 * @example
 * defineCheckoutElement("https://pay.example.com");
 */
export function defineCheckoutElement(defaultApi: string, name = "crypto-checkout"): void {
  if (customElements.get(name)) return;
  customElements.define(
    name,
    class extends HTMLElement {
      static observedAttributes = ["token", "api", "locale", "theme", "mode"];
      #unmount: (() => void) | null = null;
      connectedCallback() {
        this.#render();
      }
      disconnectedCallback() {
        this.#unmount?.();
        this.#unmount = null;
      }
      attributeChangedCallback(name: string, before: string | null, after: string | null) {
        // `theme` only restyles: the stylesheet reads the attribute (`:host([theme=…])`), so
        // the checkout keeps its state, its request and its stream. Any other attribute
        // re-renders, on a real change only.
        if (name !== "theme" && before !== after && this.isConnected && this.#unmount)
          this.#render();
      }
      #render() {
        this.#unmount?.();
        this.#unmount = mount(this, {
          token: this.getAttribute("token"),
          api: this.getAttribute("api") ?? defaultApi,
          locale: this.getAttribute("locale"),
          theme: this.getAttribute("theme") as MountOptions["theme"],
          mode: this.getAttribute("mode") as MountOptions["mode"],
        });
      }
    },
  );
}
