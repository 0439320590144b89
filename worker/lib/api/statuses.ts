/**
 * @module
 * The service's statuses as value lists, one per upstream kind: the service's wire schemas
 * (`service/schemas.ts`) and the API document's (`lib/api/schemas/responses.ts`) both enumerate
 * them from here, so neither imports the other. The types are the contract's
 * (`packages/contract/src/http-api.ts`).
 *
 * @example
 * z.enum(INVOICE_STATUSES) // "created" | "processing" | … | "cancelled"
 */
import type {
  DepositStatus,
  InvoiceStatus,
  WithdrawalStatus,
} from "../../../packages/contract/src/http-api.ts";

/** An invoice's statuses at the service. */
export const INVOICE_STATUSES = [
  "created",
  "processing",
  "suspended",
  "paid",
  "overpaid",
  "partially_paid",
  "expired",
  "failed",
  "cancelled",
] as const satisfies readonly InvoiceStatus[];

/** A deposit's statuses at the service. */
export const DEPOSIT_STATUSES = [
  "created",
  "processing",
  "completed",
  "suspended",
  "failed",
  "expired",
  "cancelled",
] as const satisfies readonly DepositStatus[];

/** A withdrawal's statuses at the service. */
export const WITHDRAWAL_STATUSES = [
  "created",
  "processing",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly WithdrawalStatus[];
