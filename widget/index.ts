/**
 * @module
 * ESM entry for bundler users: `import { defineCheckoutElement, mount } from "…/widget.esm.js"`.
 */
export type { CheckoutSnapshot, CryptoCurrency } from "../worker/api/contract.ts";
export { defineCheckoutElement, type MountOptions, mount } from "./element.ts";
