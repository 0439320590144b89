/**
 * @module
 * The merchant API's types, re-exported from the contract package
 * (`packages/contract/src/http-api.ts`), which the worker reads too, so the package and the
 * worker cannot disagree. The build copies their declarations into `dist/`; nothing here exists
 * at run time.
 */
export type {
  ApiErrorBody,
  ApiErrorCode,
  AttemptView,
  CheckoutNotification,
  CheckoutSnapshot,
  DoctorCheckView,
  DoctorReportView,
  InvoiceStatus,
  NotificationStatus,
  NotificationType,
  NotificationView,
  OrderLedgerView,
  OrderState,
  OrderSummary,
  Page,
  PayoutRequest,
  PayoutStatus,
  PayoutView,
  RefundView,
  WithdrawalStatus,
} from "../../contract/src/http-api.ts";
