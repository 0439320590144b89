/**
 * @module
 * The script-tag bundle's English catalogue, on a page global that grows as chunks load: the
 * bundle starts it with the first-paint texts (`lazy/en.ts`), and each view chunk adds its
 * view's texts (`addEnglish`, from `i18n/en-views.ts`) when it runs, i.e. before the view
 * renders. Import-free apart from `assets.ts`, so a chunk that adds texts pulls in nothing else.
 */
import { pageGlobal } from "../assets.ts";

/** The page's English catalogue so far. */
export const english = () =>
  pageGlobal<Record<string, unknown>>("__cryptoCheckoutEnglish", () => ({}));

/**
 * What a view chunk calls when it runs.
 *
 * @example
 * addEnglish(enPayment);
 */
export function addEnglish(messages: Record<string, unknown>): void {
  Object.assign(english(), messages);
}
