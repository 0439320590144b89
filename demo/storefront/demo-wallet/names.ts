/**
 * @module
 * How the demo wallet introduces itself (EIP-6963 `info`): the widget lists it by `name`.
 */

/** What the widget lists: the name says what it is. */
export const DEMO_WALLET_NAME = "Demo wallet (test key — sandbox only)";
/** Reverse-DNS id of the demo wallet (EIP-6963 `rdns`). */
export const DEMO_WALLET_RDNS = "dev.crypto-checkout.demo-wallet";
