/**
 * @module
 * The registry of locales with a catalogue: one tag per file `widget/i18n/<tag>.ts` exporting
 * `<name>` (the tag in camel case: `pt-BR` → `ptBR`, `zh-Hant` → `zhHant`). Import-free, so
 * `scripts/build-widget.ts` reads it to build one on-demand script per locale
 * (`dist/public/i18n/<tag>.js`) and the catalogue test reads it to check each file. English is
 * built in and has no script. Kept as one string: widget.js carries this list, and every byte
 * of it counts against the first paint's budget.
 *
 * Invariant: tags are canonical BCP 47 (`Intl.getCanonicalLocales(tag)[0] === tag`) and unique;
 * a tag with a script subtag (`zh-Hant`) is matched before its bare language (`resolve.ts`).
 */

/** Every locale but English. */
export const CATALOGUES: readonly string[] =
  "de fr es ar pt-BR pt it nl pl tr ru uk cs sv da nb fi el ro hu he fa ur hi bn id vi th ja ko zh-Hans zh-Hant sk ca hr bg ms".split(
    " ",
  );

/** The locales written right to left (Arabic, Hebrew, Persian, Urdu). */
export const RTL: readonly string[] = ["ar", "he", "fa", "ur"];

/** Every locale with a catalogue, English first. */
export const LOCALES: readonly string[] = ["en", ...CATALOGUES];

/**
 * The export name of a locale's file.
 *
 * @example
 * exportName("zh-Hant") // "zhHant"
 */
export const exportName = (tag: string) => tag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
