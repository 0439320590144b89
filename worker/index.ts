/**
 * @module
 * The worker's entry point: the Hono app and the Durable Object classes wrangler binds.
 */
import "./budget/install.ts";
import { app } from "./app.ts";

export { AccountObject } from "./account/account-object.ts";
export { BudgetObject } from "./budget/budget-object.ts";
export { CatalogObject } from "./catalog/catalog-object.ts";
export { PaymentModeObject } from "./config/payment-mode-object.ts";
export { DepositObject } from "./deposit/deposit-object.ts";
export { OrderObject } from "./order/order-object.ts";
export { PayoutObject } from "./payout/payout-object.ts";
export { ReconcilerObject } from "./reconciler/reconciler-object.ts";

export default app;
