/**
 * @module
 * Message catalogues: English is built in; every other locale of `locales.ts` is a separate
 * small script (`/i18n/<tag>.js`, built beside widget.js) loaded only by shoppers who need it,
 * which keeps the script-tag bundle small. A locale script registers itself on a page global,
 * so a second widget on the page reuses it. Which catalogue a shopper gets is `resolve.ts`'s
 * (element `locale`, page `lang`, browser languages, best match); a locale that fails to load
 * within 3 s falls back to English. RTL locales set `dir="rtl"`. Message format and plural
 * conventions: `README.md` here.
 *
 * Plurals are `plural.ts`'s: only views in on-demand chunks use them, so widget.js does not
 * carry the code.
 */
import { loadScriptOnce } from "../assets.ts";
import { en, type MessageKey, type Messages, type PluralKey, type TextKey } from "./en.ts";
import { fill } from "./fill.ts";
import { catalogues as registry } from "./registry.ts";
import { resolveLocale, resolverReady } from "./resolve.ts";

export { registerLocale } from "./registry.ts";

/** A translator bound to one locale. */
export interface Translator {
  /** Canonical BCP 47 tag for numbers and dates (`Intl`). */
  locale: string;
  /** The texts' language (the element's `lang`): `locale`, or `en` when its catalogue is not here. */
  lang: string;
  dir: "ltr" | "rtl";
  /** The catalogue in use (plurals read it: `plural.ts`). */
  messages: Messages;
  /** A text with its `{name}` placeholders filled. */
  t(key: TextKey, values?: Record<string, string>): string;
}

/** Who asks: one tag, or tags in order of preference (element, page, browser). */
export type Requested = string | null | undefined | readonly (string | null | undefined)[];
const listOf = (requested: Requested) => [requested].flat();

/**
 * A translator for the catalogues loaded so far: `de-CH` → `de`, unknown → `en`.
 *
 * @example
 * translator("de-DE").t("copy") // "Kopieren" once the German catalogue is loaded
 * translator(["xx", "zh-TW"]).locale // "zh-TW" (texts: zh-Hant once loaded)
 */
export function translator(requested: Requested): Translator {
  const { locale, catalogue, dir } = resolveLocale(listOf(requested));
  // English is built in: "loaded" means another catalogue that is here.
  const loaded = catalogue === "en" ? undefined : registry()[catalogue];
  const messages = loaded ?? en;
  return {
    locale,
    lang: loaded ? locale : "en",
    dir: loaded ? dir : "ltr",
    messages,
    t: (key, values = {}) => fill(messages[key], values),
  };
}

/**
 * Loads the catalogue `requested` resolves to from `assetBase` if needed, then returns its
 * translator (English texts if the script did not load).
 *
 * @example
 * const i18n = await loadTranslator(["fr-CA", "en"], "https://pay.example.com");
 */
export async function loadTranslator(requested: Requested, assetBase: string): Promise<Translator> {
  const list = listOf(requested);
  await resolverReady(list);
  const { catalogue } = resolveLocale(list);
  if (catalogue !== "en" && !registry()[catalogue]) {
    await loadScriptOnce(`${assetBase.replace(/\/+$/, "")}/i18n/${catalogue}.js`, 3000);
  }
  return translator(requested);
}

export type { MessageKey, Messages, PluralKey, TextKey };
