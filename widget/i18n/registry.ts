/**
 * @module
 * The page's loaded catalogues (a page global, so a second widget reuses them). What each
 * locale script imports: import-free apart from `assets.ts`, so a script carries its texts and
 * this, nothing else.
 */
import { pageGlobal } from "../assets.ts";
import type { Messages } from "./en.ts";

/** The catalogues loaded so far, by tag. */
export const catalogues = () =>
  pageGlobal<Record<string, Messages | undefined>>("__cryptoCheckoutLocales", () => ({}));

/**
 * Makes a catalogue available (what each locale script does when it loads).
 *
 * @example
 * registerLocale("de", de);
 */
export function registerLocale(tag: string, messages: Messages): void {
  catalogues()[tag] = messages;
}
