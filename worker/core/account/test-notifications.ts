/**
 * @module
 * Test notifications (`POST /v1/notifications/test`): one of each type, shaped like the real
 * one, with `data.test = true` and sample values, signed and delivered like any other, so a
 * merchant can check their endpoint and their signature check before the first sale.
 */
import { NOTIFICATION_TYPES, type NotificationType } from "../../lib/api/merchant-ops.ts";
import { type Notification, notification } from "../events/outbox.ts";

const order = {
  invoiceNumber: "test-1001",
  orderId: "cc-test-1001",
  attempt: 1,
  status: "paid",
  orderState: "paid",
  amount: "49.90",
  currency: "USD",
  amountPaid: "49.90",
  amountDue: "0.00",
};
const deposit = {
  topUpId: "test-topup",
  orderId: "cc-test-topup",
  depositId: "00000000-0000-4000-8000-00000000test",
  customerId: "test-customer",
  cryptoCurrencyCode: "USDT_TRC20",
  status: "completed",
};

/** Sample data per type (every value a string or a plain literal: amounts stay exact). */
const SAMPLES: Record<NotificationType, Record<string, unknown>> = {
  "order.status_changed": { ...order, previousStatus: "processing" },
  "order.payment_applied": {
    ...order,
    cryptoCurrencyCode: "USDT_TRC20",
    cryptoAmount: "49.900000",
    fiatAmount: "49.90",
    settlement: null,
  },
  "order.paid": { ...order, amountOverpaid: "0.00", amountShortfall: "0.00" },
  "order.underpaid": {
    ...order,
    status: "expired",
    orderState: "partially_paid",
    amountPaid: "49.50",
    amountDue: "0.40",
    reason: "remainder_below_minimum",
    minInvoiceAmount: "1.00",
  },
  "deposit.status_changed": { ...deposit, status: "processing", previousStatus: "created" },
  "deposit.completed": {
    ...deposit,
    amount: "100.000000",
    networkFee: "1.000000",
    commission: "0.500000",
    net: "98.500000",
    depositCommission: "0.5",
    settlementSource: "service",
    txHash: null,
  },
  "payout.status_changed": {
    orderId: "po-test-1",
    status: "completed",
    previousStatus: "processing",
    cryptoCurrencyCode: "USDT_TRC20",
    amount: "10.000000",
  },
};

/**
 * Test notifications of `types` (every type when empty), made at `now`.
 *
 * @example
 * testNotifications(["order.paid"], new Date().toISOString())[0].data.test; // true
 */
export function testNotifications(types: readonly NotificationType[], now: string): Notification[] {
  const wanted = types.length > 0 ? types : NOTIFICATION_TYPES;
  return wanted.map((type) => notification(type, now, { ...SAMPLES[type], test: true }));
}
