/**
 * Types of the ESM build (`dist/widget.esm.js`).
 */
export interface MountOptions {
  /** The checkout token minted by the merchant's backend. */
  token: string | null;
  /** The worker's origin, e.g. "https://pay.example.com". */
  api: string;
  /** BCP 47 locale; default: the page's <html lang>. */
  locale?: string | null;
  /** Force a theme; default: prefers-color-scheme. */
  theme?: "light" | "dark" | null;
  /** `deposit` shows a top-up (standalone deposit address) instead of a payment. */
  mode?: "invoice" | "deposit" | null;
}
/** Renders the checkout into `host`'s shadow root; returns an unmount function. */
export function mount(host: HTMLElement, options: MountOptions): () => void;
/** Defines <crypto-checkout> once; `defaultApi` is used when the element has no `api` attribute. */
export function defineCheckoutElement(defaultApi: string, name?: string): void;

/** `detail` of `checkout:error`. */
export interface CheckoutErrorDetail {
  code: string;
  message: string;
}
/** Events the element dispatches (bubbling, composed). `detail` of status/paid/expired is the CheckoutSnapshot. */
export interface CheckoutEventMap {
  "checkout:status": CustomEvent<unknown>;
  "checkout:paid": CustomEvent<unknown>;
  "checkout:expired": CustomEvent<unknown>;
  "checkout:error": CustomEvent<CheckoutErrorDetail>;
}
