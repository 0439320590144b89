/**
 * Rows the order's pure-function tests share: one order of 100.00 EUR and its first invoice.
 */
import type { InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import type { OrderRow } from "../../worker/order/store.ts";
import type { Invoice } from "../../worker/service/client.ts";

export const NOW = "2026-01-01T00:00:00.000Z";

/** The order: 100.00 EUR, created at `NOW`. */
export const ORDER: OrderRow = {
  checkoutId: "co_1",
  invoiceNumber: "1",
  amount: "100.00",
  currency: "EUR",
  fiatDecimalPlaces: 2,
  description: null,
  customerId: null,
  returnUrl: null,
  refundCurrency: null,
  refundAddress: null,
  createdAt: NOW,
  walletPaid: "0",
};

/** Its invoice `inv_1` (0.001 expected, expiring an hour after `NOW`) at `status`. */
export function invoice(status: InvoiceStatus, received: string | null): Invoice {
  return {
    id: "inv_1",
    orderId: "cc-1",
    status,
    cryptoCurrencyCode: null,
    cryptoAmountExpected: "0.001",
    cryptoAmountReceived: received,
    address: "tb1q-addr",
    settlement: null,
    expiresAt: "2026-01-01T01:00:00.000Z",
    paymentPageUrl: "https://pay/1",
  } as unknown as Invoice;
}
