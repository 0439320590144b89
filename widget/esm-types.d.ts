/**
 * Types of the ESM build (`dist/widget.esm.js`). The build replaces the import below with the
 * contract's own text, so `dist/widget.esm.d.ts` stands alone. `test/widget/types.test.ts`
 * checks these declarations against the implementation.
 */
import type { CheckoutSnapshot, DepositSnapshot } from "../packages/contract/src/http-api.ts";

/** Options of `mount()`. */
export interface MountOptions {
  /** The checkout token minted by the merchant's backend. */
  token: string | null;
  /** The worker's origin, e.g. "https://pay.example.com". */
  api: string;
  /** BCP 47 locale; default: the page's <html lang>; unknown → English. */
  locale?: string | null;
  /** Force a theme; default: prefers-color-scheme. */
  theme?: "light" | "dark" | null;
  /** `deposit` shows a top-up (standalone deposit address) instead of a payment. */
  mode?: "invoice" | "deposit" | null;
}
/** Renders the checkout into `host`'s open shadow root; returns an unmount function. */
export function mount(host: HTMLElement, options: MountOptions): () => void;
/** Defines <crypto-checkout> once; `defaultApi` is used when the element has no `api` attribute. */
export function defineCheckoutElement(defaultApi: string, name?: string): void;

/** `detail` of `checkout:error`. */
export interface CheckoutErrorDetail {
  /** The worker's error code, or `network` / `missing_token`. */
  code: string;
  /** The message the widget shows, in the shopper's language. */
  message: string;
  /**
   * For the storefront's developer (also logged to the console), never shown to the shopper:
   * the worker's own message, e.g. "25.005 EUR has more than 2 decimal places." or which
   * origin `ALLOWED_ORIGINS` lacks.
   */
  developerMessage: string;
}
/** Events the element dispatches (bubbling, composed). */
export interface CheckoutEventMap {
  "checkout:status": CustomEvent<CheckoutSnapshot | DepositSnapshot>;
  "checkout:paid": CustomEvent<CheckoutSnapshot | DepositSnapshot>;
  "checkout:expired": CustomEvent<CheckoutSnapshot>;
  "checkout:error": CustomEvent<CheckoutErrorDetail>;
}

declare global {
  // `el.addEventListener("checkout:paid", (e) => e.detail…)` is typed on every element.
  interface HTMLElementEventMap extends CheckoutEventMap {}
  interface DocumentEventMap extends CheckoutEventMap {}
  // `document.querySelector("crypto-checkout")` is an HTMLElement, so its events are typed too.
  interface HTMLElementTagNameMap {
    "crypto-checkout": HTMLElement;
  }
}
