/**
 * @module
 * Plural messages (`README.md` here): the variant `Intl.PluralRules` of the texts' language
 * (`lang`: the catalogue's, or `en`) selects for a count, with `{count}` in the shopper's digits. Imported by the views that need
 * it (on-demand chunks), not by widget.js.
 *
 * Invariant: `select()` names categories of the catalogue's language, which the catalogue test
 * checks each file declares (plural rules are per language: `de-CH` selects as `de`); `other`,
 * in every locale's set, is the fallback regardless.
 */
import type { PluralKey } from "./en.ts";
import { fill } from "./fill.ts";
import type { Translator } from "./index.ts";

/**
 * The variant of `key` for `count`, placeholders filled.
 *
 * @example
 * plural(translator("en"), "minutesLeft", 2) // "2 minutes left to pay"
 * plural(translator("pl"), "minutesLeft", 5) // "Zostało 5 minut" (once Polish is loaded)
 */
export function plural(
  i18n: Translator,
  key: PluralKey,
  count: number,
  values: Record<string, string> = {},
): string {
  const variants = i18n.messages[key];
  const text = variants[new Intl.PluralRules(i18n.lang).select(count)] ?? variants.other;
  return fill(text, { ...values, count: new Intl.NumberFormat(i18n.locale).format(count) });
}
