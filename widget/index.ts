/**
 * @module
 * ESM entry for bundler users: `import { defineCheckoutElement, mount } from "…/widget.esm.js"`.
 */
export type {
  CheckoutSnapshot,
  CryptoCurrency,
  DepositSnapshot,
  PaymentInstructions,
} from "../packages/contract/src/http-api.ts";
export { defineCheckoutElement, type MountOptions, mount } from "./element.ts";
export type { CheckoutErrorDetail, CheckoutEventMap } from "./events.ts";
