/**
 * @module
 * English messages that widget.js carries: the card, the currency picker, the statuses
 * before and right after the choice, and every error text, so an English shopper's first
 * paint needs no extra request. The wallet button's words (x402) are here too; the flow's own
 * are in its chunk. The statuses of later states (`enStatus`) and the texts of the
 * views loaded on demand are in `en-views.ts`, each set travelling in its chunk; `en.ts` is
 * the whole catalogue.
 */
export const enFirst = {
  loading: "Loading your checkout…",
  testMode: "Test mode — test networks only. Never send real (mainnet) funds.",
  orderTotal: "Order total",
  chooseCurrency: "Choose how you pay",
  noCurrencies: "No crypto currency is available right now. Please try again later.",
  statusWaiting: "Waiting for your payment…",
  statusNew: "Not paid yet.",
  partialAcrossAttempts: "Already paid {paid} of {total}.",
  tryAgain: "Try again",
  backToShop: "Back to the shop",
  addressInvalid: "This is not a valid {code} address on {network}.",
  errorRefundAddressFrozen: "A refund is on its way to this address; it can no longer change.",
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
  statusRefunded: "This order was refunded. Please contact the shop to buy again.",
  errorContactShop: "This order cannot be paid here. Please contact the shop.",
  errorAttemptOpen: "A payment for this order is still open. Please wait a moment and try again.",
  retry: "Retry",
  errorOrigin: "This site may not use this checkout. Please tell the shop.",
  reconnecting: "Connection lost — reconnecting…",
  payFromWallet: "Pay from your wallet",
  walletAmount: "{amount} {code} on {network}",
  walletConfirming: "Confirming your payment…",
} as const;
