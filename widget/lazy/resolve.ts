/**
 * @module
 * The script-tag bundle's stand-in for `../i18n/resolve.ts`: which catalogue a shopper gets is
 * decided by that module, served on demand as `i18n/resolve.js` (with the registry's list), so
 * widget.js carries neither. A shopper whose first valid choice is English needs neither either:
 * English is answered here. Any other waits for `resolverReady` (one small script, cached,
 * fetched while the checkout's first request is under way), then resolves as the ESM build does.
 *
 * Invariant: until the resolver ran (or if it cannot load), the answer is English, texts and
 * numbers: never an error, never a blank card. The element draws again once it resolved.
 */

import type { resolveLocale as Resolve, Resolved } from "../i18n/resolve.ts";
import { views } from "./registry.ts";
import { loadChunk } from "./view.ts";

type Requested = readonly (string | null | undefined)[];
// Registered like a view (the registry is a page global of functions), as `later.ts` does.
const resolver = () => views().resolve as unknown as typeof Resolve | undefined;

/** Null if English comes first or the resolver ran; else the wait for `i18n/resolve.js`. */
export function resolverReady(requested: Requested): Promise<void> | null {
  const first = requested.find((tag) => tag?.trim())?.trim() ?? "en";
  return resolver() || /^en(-|$)/i.test(first) ? null : loadChunk("i18n/resolve.js");
}

export const resolveLocale = (requested: Requested): Resolved =>
  resolver()?.(requested) ?? { locale: "en", catalogue: "en", dir: "ltr" };
