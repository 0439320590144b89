/**
 * @module
 * Which catalogue a shopper gets: the first of the requested tags (the element's `locale`,
 * then the page's `lang`, then `navigator.languages`) that matches a catalogue of `locales.ts`,
 * best match first: the exact tag (`pt-BR`), the language with its likely script
 * (`zh-TW` → `zh-Hant`, `zh` → `zh-Hans`), the language with its region (`pt-Latn-BR` → `pt-BR`),
 * the language (`pt-PT` → `pt`, `de-CH` → `de`), a known alias (`no`, `nn` → `nb`). No match
 * anywhere: English, with the first valid tag kept for numbers and dates.
 *
 * Invariant: a tag `Intl` refuses (`de-`) is skipped, never thrown: no `RangeError` reaches a
 * render. At most `MAX_CANDIDATES` tags are looked at (an outsider controls them).
 *
 * The script-tag bundle does not carry this module (nor the registry's list): its stand-in
 * `lazy/resolve.ts` answers English by itself and loads `i18n/resolve.js` (this module) only
 * for a shopper whose first choice is not English; `resolverReady` says when to wait for it
 * (here: never).
 */
import { LOCALES, RTL } from "./locales.ts";

const MAX_CANDIDATES = 12;
const ALIASES: Record<string, string> = { no: "nb", nn: "nb" };

/** The outcome: `catalogue` names the messages, `locale` formats numbers and dates. */
export interface Resolved {
  /** Canonical tag of the shopper's choice (`de-CH`): what `Intl` formats with. */
  locale: string;
  /** The catalogue's tag (`de`), `en` when none matched. */
  catalogue: string;
  /** The catalogue's writing direction. */
  dir: "ltr" | "rtl";
}

/**
 * What to wait for before `resolveLocale` can answer: null, it is here.
 *
 * @example
 * resolverReady(["de"]) // null
 */
export function resolverReady(
  _requested: readonly (string | null | undefined)[],
): Promise<void> | null {
  return null;
}

/** The canonical tag and its likely subtags (`zh-TW` → zh, Hant, TW), or null if `Intl` refuses it. */
function parse(raw: string | null | undefined): [string, Intl.Locale] | null {
  try {
    const tag = raw?.trim() && Intl.getCanonicalLocales(raw.trim())[0];
    return tag ? [tag, new Intl.Locale(tag).maximize()] : null;
  } catch {
    return null;
  }
}

/**
 * Resolves the shopper's catalogue from the tags in order of preference (empty ones skipped),
 * among `locales` (the registry's; a test may pass its own).
 *
 * @example
 * resolveLocale([null, "", "zh-TW", "en"]) // { locale: "zh-TW", catalogue: "zh-Hant" }
 * resolveLocale(["sw"]) // { locale: "sw", catalogue: "en" }
 */
export function resolveLocale(
  requested: readonly (string | null | undefined)[],
  locales: readonly string[] = LOCALES,
): Resolved {
  const known = new Set(locales);
  let first: string | undefined;
  for (const raw of requested.slice(0, MAX_CANDIDATES)) {
    const parsed = parse(raw);
    if (!parsed) continue;
    const [tag, { language, script, region }] = parsed;
    first ??= tag;
    const tries = [
      tag,
      `${language}-${script}`,
      `${language}-${region}`,
      language,
      ALIASES[language],
    ];
    const catalogue = tries.find((t) => t && known.has(t));
    if (catalogue) return { locale: tag, catalogue, dir: RTL.includes(catalogue) ? "rtl" : "ltr" };
  }
  return { locale: first ?? "en", catalogue: "en", dir: "ltr" };
}
