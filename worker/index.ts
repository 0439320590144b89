/**
 * @module
 * The worker's entry point: the Hono app and the Durable Object classes wrangler binds.
 */
import "./core/budget/install.ts";
import { app } from "./edge/app.ts";

export { AccountObject } from "./core/account/account-object.ts";
export { BudgetObject } from "./core/budget/budget-object.ts";
export { CatalogObject } from "./core/catalog/catalog-object.ts";
export { PaymentModeObject } from "./core/config/payment-mode-object.ts";
export { ReconcilerObject } from "./core/reconciler/reconciler-object.ts";
export { StreamHubObject } from "./core/streams/stream-hub-object.ts";
export { DepositObject } from "./deposit/deposit-object.ts";
export { OrderObject } from "./order/order-object.ts";
export { PayoutObject } from "./payout/payout-object.ts";

export default app;
