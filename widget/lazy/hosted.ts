/**
 * @module
 * The script-tag bundle's stand-in for `../views/hosted.tsx`: only checkouts the service
 * serves on its own payment page (or whose in-page lock it refused) show the hosted view, so
 * it is loaded on demand from `hosted.js` and an in-page shopper's first paint does not carry
 * it. The live status above it is the bundle's own and shows at once.
 */
import type { ComponentProps } from "preact";
import type { HostedPanel as View } from "../views/hosted.tsx";
import { lazyView } from "./view.ts";

export const HostedPanel = lazyView<ComponentProps<typeof View>>("hosted", "hosted.js");
