/**
 * @module
 * What the merchant routes answer (besides payouts, in `responses.ts`): an order's ledger and
 * the doctor's report. Checked both ways against `packages/contract/src/http-api.ts`; the worker's own types
 * (`OrderLedger`, `DoctorReport`) are checked to fit those in `test/worker/openapi.test.ts`
 * (this folder is also compiled with the widget, which must not see the order's storage).
 */
import * as z from "zod/mini";
import type {
  DoctorReportView,
  OrderLedgerView,
} from "../../../../packages/contract/src/http-api.ts";
import { decimalString, type Same } from "./common.ts";
import { invoiceStatus, orderState, refundView, x402PaymentView } from "./responses.ts";

const nullableString = z.nullable(z.string());

export const orderLedger = z.object({
  invoiceNumber: z.string(),
  checkoutId: z.string(),
  state: orderState,
  amount: decimalString,
  currency: z.string(),
  amountPaid: decimalString,
  amountDue: decimalString,
  amountOverpaid: decimalString,
  amountShortfall: decimalString,
  customerId: nullableString,
  refundAddress: z.nullable(z.object({ cryptoCurrencyCode: z.string(), address: z.string() })),
  attempts: z.array(
    z.object({
      number: z.int(),
      orderId: z.string(),
      invoiceId: z.string(),
      status: invoiceStatus,
      ended: z.boolean(),
      fiatAmount: decimalString,
      cryptoCurrencyCode: nullableString,
      cryptoExpected: z.nullable(decimalString),
      cryptoReceived: decimalString,
      fiatApplied: decimalString,
      fiatOverpaid: decimalString,
      settlement: z.nullable(z.record(z.string(), z.unknown())),
    }),
  ),
  refunds: z.array(z.extend(refundView, { withdrawalId: nullableString })),
  payments: z.array(
    z.object({
      attempt: z.int(),
      status: z.string(),
      cryptoCode: nullableString,
      cryptoAmount: decimalString,
      fiatAmount: decimalString,
      at: z.string(),
    }),
  ),
  log: z.array(z.object({ seq: z.int(), type: z.string(), message: z.string(), at: z.string() })),
  notifications: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      attempts: z.int(),
      deliveredAt: nullableString,
      lastStatus: nullableString,
      createdAt: z.string(),
    }),
  ),
  x402Payments: z.array(x402PaymentView),
  createdAt: z.string(),
});

export const doctorReport = z.object({
  ok: z.boolean(),
  environment: z.enum(["sandbox", "production"]),
  baseUrl: z.string(),
  paymentMode: z.object({ mode: z.enum(["in-page", "hosted"]), reason: z.string() }),
  upstreamBudget: z.object({ maxCallsPerSecond: z.int(), message: z.string() }),
  checks: z.array(
    z.object({
      name: z.string(),
      ok: z.boolean(),
      warning: z.optional(z.boolean()),
      message: z.string(),
    }),
  ),
});

const checked: [
  Same<z.output<typeof orderLedger>, OrderLedgerView>,
  Same<z.output<typeof doctorReport>, DoctorReportView>,
] = [true, true];
void checked;
