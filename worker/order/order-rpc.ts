/**
 * @module
 * What the rest of the worker may ask an order (`OrderObject`) through its stub: the methods
 * and their argument and answer types, and nothing of the class. `Env` names the `ORDERS`
 * namespace by this interface, so the bindings never import the object (and through it every
 * module the object needs); `OrderObject implements OrderRpc` keeps the two in step.
 */

import type { CheckoutSnapshot, CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import type { PaymentMode } from "../core/config/mode-decision.ts";
import type { Delivery, DeliveryOutcome } from "../core/converge/delivery.ts";
import type { NotifierRpc } from "../core/events/notifier-rpc.ts";
import type { FollowerRpc } from "../core/reconciler/reconciler-rpc.ts";
import type { WatchedRpc } from "../core/streams/stream-hub-rpc.ts";
import type { Outcome } from "../lib/outcome/outcome.ts";
import type { Invoice } from "../service/types.ts";
import type { OrderLedger } from "./ledger-view.ts";
import type { RefundStart } from "./refunds/hold.ts";
import type { RefundRecord } from "./refunds/records.ts";

/** What the worker passes when a widget opens a checkout. */
export interface OpenCheckout {
  checkoutId: string;
  invoiceNumber: string;
  amount: string;
  currency: string;
  fiatDecimalPlaces: number;
  /** The fiat's smallest invoice (from the live list), for the remainder-below-minimum rule. */
  minInvoiceAmount?: string;
  description: string | null;
  customerId: string | null;
  returnUrl: string | null;
  /** Where the service's page sends the payer after paid/overpaid, and after failed/suspended/partially_paid. */
  successUrl: string | null;
  failedUrl: string | null;
  /** The deployment's mode when the order opens; the order keeps it (see `order-journal.ts` `mode`). */
  mode: PaymentMode;
  /**
   * Who opens it (`edge/http/client-key.ts`): the create counts in that client's share of the
   * upstream budget (`core/budget/shares.ts`). Never stored.
   */
  client?: string;
}

/** The order's RPC methods (see `order-object.ts` for what each does). */
import type { X402Settlement } from "../service/facilitator.ts";
import type { X402Answer, X402Request } from "./x402/pay-x402.ts";

export interface OrderRpc extends Rpc.DurableObjectBranded, NotifierRpc, FollowerRpc, WatchedRpc {
  open(input: OpenCheckout): Promise<Outcome<{ created: boolean; snapshot: CheckoutSnapshot }>>;
  view(): Promise<Outcome<CheckoutSnapshot>>;
  lockCurrency(currency: CryptoCurrency, client?: string): Promise<Outcome<CheckoutSnapshot>>;
  retry(client?: string): Promise<Outcome<CheckoutSnapshot>>;
  setRefundAddress(cryptoCurrencyCode: string, address: string): Promise<Outcome<CheckoutSnapshot>>;
  applyInvoiceWebhook(delivery: Delivery<Invoice>): Promise<DeliveryOutcome>;
  recordRefund(refund: RefundRecord): Promise<Outcome<{ changed: boolean }>>;
  beginRefund(): Promise<Outcome<RefundStart>>;
  abandonRefund(orderId: string): Promise<Outcome<{ released: boolean }>>;
  ledger(): Promise<Outcome<OrderLedger>>;
  payX402(request: X402Request): Promise<X402Answer>;
  applyX402Settlement(settlement: X402Settlement): Promise<{ known: boolean }>;
}

/** The binding that reaches these objects (part of `Env`; taken alone by who calls them). */
export interface OrdersBinding {
  ORDERS: DurableObjectNamespace<OrderRpc>;
}
