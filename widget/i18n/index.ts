/**
 * @module
 * Message catalogues: English is built in; de, fr, es and ar are separate small scripts
 * (`/i18n/<lang>.js`, built beside widget.js) loaded only by shoppers who need them, which
 * keeps the script-tag bundle small. A locale script registers itself on a page global, so a
 * second widget on the page reuses it. Unknown locales, or a locale that fails to load within
 * 3 s, fall back to English. RTL locales set `dir="rtl"`.
 *
 * Invariant: the requested tag is canonicalised once, here (`Intl.getCanonicalLocales`); a tag
 * `Intl` refuses (`de-`) becomes `en`, so no `RangeError` reaches a render. A valid tag without
 * a catalogue (`pt-BR`) still formats numbers and dates its way, with English texts.
 */
import { loadScriptOnce, pageGlobal } from "../assets.ts";
import { en, type MessageKey, type Messages } from "./en.ts";

/** Locales with a catalogue. */
export const LOCALES = ["en", "de", "fr", "es", "ar"] as const;
const RTL = new Set(["ar", "he", "fa", "ur"]);
type Registry = Record<string, Messages | undefined>;
const registry = () => pageGlobal<Registry>("__cryptoCheckoutLocales", () => ({}));

/** Makes a catalogue available (what each locale script does when it loads). */
export function registerLocale(lang: string, messages: Messages): void {
  registry()[lang] = messages;
}

/** A translator bound to one locale. */
export interface Translator {
  /** Canonical BCP 47 tag for numbers and dates (`Intl`). */
  locale: string;
  /** The texts' language (the element's `lang`): `locale`, or `en` when it has no catalogue. */
  lang: string;
  dir: "ltr" | "rtl";
  t(key: MessageKey, values?: Record<string, string>): string;
}

function canonical(requested: string | null | undefined): string {
  try {
    return Intl.getCanonicalLocales(requested?.trim() || "en")[0] ?? "en";
  } catch {
    return "en";
  }
}
const baseOf = (requested: string | null | undefined) =>
  canonical(requested).toLowerCase().split("-")[0] ?? "en";

/**
 * A translator for the catalogues loaded so far: `de-CH` → `de`, unknown → `en`.
 *
 * @example
 * translator("de-DE").t("copy") // "Kopieren" once the German catalogue is loaded
 * translator("pt-BR").locale // "pt-BR" (numbers), with English texts (lang "en")
 */
export function translator(requested: string | null | undefined): Translator {
  const locale = canonical(requested);
  const base = baseOf(locale);
  const messages = base === "en" ? en : registry()[base];
  const catalogue = messages ?? en;
  return {
    locale,
    lang: messages ? locale : "en",
    dir: messages && RTL.has(base) ? "rtl" : "ltr",
    t: (key, values = {}) =>
      catalogue[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? ""),
  };
}

/**
 * Loads the catalogue for `requested` from `assetBase` if needed, then returns its translator.
 *
 * @example
 * const i18n = await loadTranslator("fr", "https://pay.example.com");
 */
export async function loadTranslator(
  requested: string | null | undefined,
  assetBase: string,
): Promise<Translator> {
  const base = baseOf(requested);
  if (base !== "en" && (LOCALES as readonly string[]).includes(base) && !registry()[base]) {
    await loadScriptOnce(`${assetBase.replace(/\/+$/, "")}/i18n/${base}.js`, 3000);
  }
  return translator(requested);
}

export type { MessageKey, Messages };
