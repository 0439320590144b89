/**
 * @module
 * English messages of the views loaded on demand, one set per chunk: the script-tag build
 * puts each set in its chunk, which adds it to the bundle's English catalogue when it loads
 * (`lazy/english.ts`), before the view renders. `en.ts` (the whole catalogue) spreads them.
 * Other locales' scripts carry every key.
 */

/**
 * The statuses of the states after the choice (a payment detected, paid, over- or underpaid,
 * ended) and the refund-too-small note: the texts of `views/later.tsx`, which travels with
 * them in `payment.js`. Top-up mode reuses `statusSuspended`.
 */
export const enStatus = {
  statusProcessing: "Payment detected — waiting for network confirmations.",
  statusSuspended: "Your payment is under review. No action is needed; we will update this page.",
  statusPaid: "Paid — thank you!",
  statusOverpaid: "Paid — you sent {extra} more than needed.",
  statusPartial: "Received {received} of {amount} {code}.",
  statusPartialEnded:
    "Received {received} of {amount} {code} before this payment window closed. Try again to pay the {due} still due.",
  statusExpired: "This payment attempt expired before a payment arrived.",
  statusFailed: "This payment attempt failed.",
  statusCancelled: "This payment attempt was cancelled.",
  statusRemainderBelowMinimum:
    "{due} is still due, less than the smallest payment the service accepts ({minimum}). The shop will refund or accept this order; there is nothing more to pay here.",
  refundTooSmall:
    "{excess} {code} is less than the smallest refund that can be sent ({minimum} {code}, network fee included), so it cannot be sent back automatically. Contact the shop if you have questions about it.",
} as const;

/** The payment instructions (`payment.js`); also the QR code and copy rows that the hosted view and top-up mode reuse. */
export const enPayment = {
  payTitle: "Send your payment",
  sendExactly: "Send exactly",
  sendRemaining: "Send the remaining",
  toAddress: "To this address",
  copy: "Copy",
  copyAmount: "Copy the amount",
  copyAddress: "Copy the address",
  copied: "Copied to clipboard",
  copyFailed: "Couldn't copy — select the text",
  qrFailed: "The QR code could not load: copy the amount and address.",
  openWallet: "Open in wallet",
  walletInvoice: "Pay with a browser wallet",
  sendOnly: "Send only {code} on the {network} network. Other coins or networks are lost.",
  expiresIn: "Expires in {time}",
  /** Plural (keyed by `Intl.PluralRules` categories): the countdown's accessible name. */
  minutesLeft: { one: "{count} minute left to pay", other: "{count} minutes left to pay" },
  expired: "This payment window has closed.",
  changeCurrency: "Change currency",
  qrLabel: "QR code: pay {amount} {code} on {network} to {address}",
} as const;

/** The service's payment page (`hosted.js`). */
export const enHosted = {
  hostedIntro:
    "Continue on the payment page; this box updates by itself when your payment arrives.",
  openPaymentPage: "Open payment page",
  payOnPhone: "Pay on your phone",
  phoneQr: "Scan to open the payment page on your phone.",
} as const;

/** The refund form (`refund.js`). `addressInvalid` stays in `en-first.ts`: the worker's `invalid_address` error can show without the form. */
export const enRefund = {
  refundTitle: "Refund address",
  refundHelp: "Your {code} address on {network}, in case a refund is due.",
  refundSave: "Save refund address",
  refundSaved: "Refund address saved.",
  addressChecksum: "This address has a typo (its checksum does not match).",
  addressTestnet: "Test mode: use a test-network address, not a mainnet one.",
} as const;

/** Top-up mode (`topup.js`). */
export const enTopUp = {
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

/** Paying from the shopper's wallet (x402, `wallet.js`); the button's own words are in `en-first.ts`. */
export const enWallet = {
  walletNone: "No wallet found in this browser. Install a wallet extension, or pay another way.",
  walletBrowser: "Browser wallet",
  walletCheck: "Continue in your wallet…",
  walletSending: "Sending your payment…",
  walletDeclined: "You declined in your wallet.",
  walletWrongChain: "Your wallet is not on {network}. Switch it to {network} and try again.",
  walletFailed: "Your wallet could not complete this. Try again or choose another wallet.",
  walletBalance: "Not enough USDC in this wallet.",
  walletExpired: "The signature expired. Please sign again.",
  walletBadSignature: "The wallet's signature did not verify. Try again or choose another wallet.",
  walletRefused: "The payment was refused ({reason}).",
  walletInFlight: "Another payment for this order is being confirmed. Please wait a moment.",
  walletNotOffered: "Paying from a wallet is no longer possible for this order.",
  walletInvalid: "The payment could not be prepared. Please try again.",
  walletOther: "Choose another wallet",
  walletBack: "Pay another way",
  walletSent: "Sent from your wallet — waiting for the network",
  walletNoChain:
    "Your wallet does not have the {network} network. Add it in your wallet, or pay another way.",
  walletNoFunds: "Not enough funds in this wallet for this amount and its network fee.",
  walletTerms:
    "The wallet payment's terms differ from what was shown, so nothing was signed. Reload the page or pay another way.",
  walletLastFailed: "Your last wallet payment did not go through; nothing was charged.",
  walletLastFailedBalance:
    "Your last wallet payment did not go through (not enough USDC); nothing was charged.",
} as const;
