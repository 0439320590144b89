/**
 * @module
 * ESM entry for bundler users: `import { defineCheckoutElement, mount } from "…/widget.esm.js"`.
 */
export type {
  CheckoutSnapshot,
  CryptoCurrency,
  DepositSnapshot,
  PaymentInstructions,
} from "../worker/lib/api/contract.ts";
export { defineCheckoutElement, type MountOptions, mount } from "./element.ts";
export type { CheckoutErrorDetail, CheckoutEventMap } from "./events.ts";
