/**
 * @module
 * The script-tag bundle's stand-in for `../views/payment.tsx`: the payment instructions come
 * after the currency choice, so they are not part of what the shopper downloads before the
 * picker. The chunk (`payment.js`) starts loading on the shopper's first pointer or key
 * press on the page, i.e. while the currency lock is still on its way, and otherwise when the
 * panel first renders (a reopened checkout whose currency is already locked).
 */
import type { ComponentProps } from "preact";
import type { PaymentPanel as View } from "../views/payment.tsx";
import { lazyView, loadChunk } from "./view.ts";

const SCRIPT = "payment.js";

for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => void loadChunk(SCRIPT), { capture: true, once: true });
}

export const PaymentPanel = lazyView<ComponentProps<typeof View>>("payment", SCRIPT);
