/**
 * @module
 * The script-tag bundle's stand-in for `../views/wallet.tsx`: paying from the shopper's wallet
 * (x402) is loaded on demand from `wallet.js` when the shopper clicks "Pay from your wallet",
 * so widget.js carries only the button and its words.
 */
import type { ComponentProps } from "preact";
import type { WalletPay as View } from "../views/wallet.tsx";
import { lazyView } from "./view.ts";

export const WalletPay = lazyView<ComponentProps<typeof View>>("wallet", "wallet.js");
