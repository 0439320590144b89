/**
 * @module
 * English messages: the catalogue's reference. Other locales must provide every key, texts as
 * strings and plurals as objects keyed by their own `Intl.PluralRules` categories (see
 * `README.md` here). `{name}` placeholders are filled by `t()` (texts) and `plural()` (plurals). What widget.js carries is
 * `en-first.ts`; the texts of the views loaded on demand are in `en-views.ts` (see there).
 */
import { enFirst } from "./en-first.ts";
import { enHosted, enPayment, enRefund, enStatus, enTopUp, enWallet } from "./en-views.ts";

export const en = {
  ...enFirst,
  ...enStatus,
  ...enPayment,
  ...enHosted,
  ...enRefund,
  ...enTopUp,
  ...enWallet,
} as const;

type English = typeof en;
/** Every message key. */
export type MessageKey = keyof English;
/** The keys whose message is a plural (an object of variants), fixed by English. */
export type PluralKey = {
  [K in MessageKey]: English[K] extends string ? never : K;
}[MessageKey];
/** The keys whose message is a text. */
export type TextKey = Exclude<MessageKey, PluralKey>;
/**
 * A plural: one text per CLDR plural category of the locale (`{count}` is the number). `other`
 * is in every locale's set; the catalogue test checks the rest against `Intl.PluralRules`.
 */
export type Plural = { readonly other: string } & {
  readonly [C in Intl.LDMLPluralRule]?: string;
};
/** A complete catalogue. */
export type Messages = { readonly [K in MessageKey]: K extends PluralKey ? Plural : string };
