/**
 * @module
 * The script-tag bundle's stand-in for `../views/refund-form.tsx`: only a shopper who under-
 * or overpaid sees the refund form, so it is loaded on demand from `refund.js`.
 */
import type { ComponentProps } from "preact";
import type { RefundForm as View } from "../views/refund-form.tsx";
import { lazyView } from "./view.ts";

export const RefundForm = lazyView<ComponentProps<typeof View>>("refund-form", "refund.js");
