/**
 * @module
 * The script-tag bundle's stand-in for `../topup.tsx`: top-up mode is loaded on demand from
 * `topup.js`, so a shopper paying an order never downloads it.
 */
import type { ComponentProps } from "preact";
import type { TopUp as View } from "../topup.tsx";
import { lazyView } from "./view.ts";

export const TopUp = lazyView<ComponentProps<typeof View>>("topup", "topup.js");
