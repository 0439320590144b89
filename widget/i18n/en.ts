/**
 * @module
 * English messages: the catalogue's reference. Other locales must provide every key.
 * `{name}` placeholders are filled by `t()`.
 */
export const en = {
  loading: "Loading your checkout…",
  testMode: "Test mode — test networks only. Never send real (mainnet) funds.",
  orderTotal: "Order total",
  chooseCurrency: "Choose how you pay",
  noCurrencies: "No crypto currency is available right now. Please try again later.",
  network: "{network} network",
  payWith: "Pay {code} on {network}",
  sendExactly: "Send exactly",
  sendRemaining: "Send the remaining",
  toAddress: "To this address",
  copy: "Copy",
  copied: "Copied to clipboard",
  openWallet: "Open in wallet",
  sendOnly: "Send only {code} on the {network} network. Other coins or networks are lost.",
  expiresIn: "Expires in {time}",
  expired: "This payment window has closed.",
  changeCurrency: "Change currency",
  qrLabel: "QR code: pay {amount} {code} on {network} to {address}",
  hostedIntro:
    "Continue on the payment page; this box updates by itself when your payment arrives.",
  openPaymentPage: "Open payment page",
  statusWaiting: "Waiting for your payment…",
  statusProcessing: "Payment detected — waiting for network confirmations.",
  statusSuspended: "Your payment is under review. No action is needed; we will update this page.",
  statusPaid: "Paid — thank you!",
  statusOverpaid:
    "Paid — you sent more than needed. Leave a refund address to get the excess back.",
  statusPartial: "Received {received} of {amount} {code}.",
  statusExpired: "This payment attempt expired before a payment arrived.",
  statusFailed: "This payment attempt failed.",
  statusCancelled: "This payment attempt was cancelled.",
  partialAcrossAttempts: "Already paid {paid} of {total}.",
  tryAgain: "Try again",
  backToShop: "Back to the shop",
  refundTitle: "Refund address",
  refundHelp: "Your {code} address on {network}, in case a refund is due.",
  refundSave: "Save refund address",
  refundSaved: "Refund address saved.",
  addressInvalid: "This is not a valid {code} address on {network}.",
  addressChecksum: "This address has a typo (its checksum does not match).",
  errorGeneric: "Something went wrong. Please try again.",
  errorNetwork: "We cannot reach the checkout service. Check your connection and try again.",
  errorToken: "This checkout link is not valid. Please go back to the shop and start again.",
  errorTokenExpired: "This checkout link has expired. Please reload the page.",
  errorNoToken: "This checkout is missing its token. The shop must set the token attribute.",
  errorConflict:
    "This order already has a checkout with a different amount. Please contact the shop.",
  errorBelowMinimum: "The amount is below the minimum this payment method accepts.",
  errorBusy: "The payment service is busy. Please try again in a moment.",
  errorRateLimited: "Too many attempts. Please wait a minute and try again.",
  errorCurrency: "This currency is not available right now. Please choose another.",
  errorConfig: "The shop's checkout is not configured yet. Please contact the shop.",
  errorNotFound: "This checkout no longer exists. Please go back to the shop and start again.",
  errorOrderPaid: "This order is already paid.",
  errorAttemptOpen: "A payment for this order is still open. Please wait a moment and try again.",
  payTitle: "Send your payment",
  retry: "Retry",
  topUpTitle: "Top up with {code} on {network}",
  topUpChoose: "Choose the currency to top up with",
  topUpSendTo: "Send any amount to this address",
  topUpMinimum: "Minimum deposit: {amount} {code}",
  topUpFee: "Service fee: {percent} % of what you send",
  topUpNetworkFee: "Network fee: {amount} {code}",
  topUpWaiting: "Waiting for your deposit…",
  topUpProcessing: "Deposit detected — waiting for network confirmations.",
  topUpCompleted: "Credited {net} {code}.",
  topUpBreakdown:
    "Received {received} − service fee {commission} − network fee {fee} = {net} {code}",
  topUpFailed: "This deposit failed. Please contact the shop.",
  topUpExpired: "This deposit address has expired.",
  topUpCancelled: "This deposit was cancelled.",
} as const;

/** Every message key. */
export type MessageKey = keyof typeof en;
/** A complete catalogue. */
export type Messages = Record<MessageKey, string>;
