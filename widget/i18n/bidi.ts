/**
 * @module
 * Amounts in right-to-left text. A Latin amount and ticker ("42 USDT") inside Arabic or Hebrew
 * runs are laid out by the Unicode bidi algorithm as "USDT 42": the space between a number and
 * a Latin word takes the paragraph's direction. Each "<amount> <TICKER>" is wrapped in a
 * left-to-right isolate (U+2066 … U+2069), so it reads "42 USDT" as a unit. Invisible, and
 * screen readers skip it; the copied value is never this text (copy rows copy the plain amount).
 *
 * The RTL catalogues (ar, he, fa, ur) carry the isolates in their texts ("\u2066{amount}
 * {code}\u2069"), which costs widget.js nothing; this function is for the amounts a view
 * builds itself (the payment view's "Send exactly"), in its on-demand chunk.
 */

const LRI = "\u2066";
const PDI = "\u2069";
// A number (any script's digits, with the separators `Intl` puts between them), one space (or
// no-break space), then a ticker in capitals ("USDT", "ETH", "USDC").
const AMOUNT_AND_TICKER =
  /(?<![\p{L}\p{Nd}-])(\p{Nd}(?:\p{Nd}|[.,'\u066B\u066C\u00A0\u202F](?=\p{Nd}))*)([ \u00A0])(\p{Lu}[\p{Lu}\d]{1,9})(?![\p{L}\d])/gu;

/**
 * `text` with each amount and its ticker kept left to right (only where the text is RTL).
 *
 * @example
 * isolateAmounts("أرسل 42 USDT", "rtl") // "أرسل \u206642 USDT\u2069"
 * isolateAmounts("Send 42 USDT", "ltr") // unchanged
 */
export function isolateAmounts(text: string, dir: "ltr" | "rtl"): string {
  return dir === "rtl" ? text.replace(AMOUNT_AND_TICKER, `${LRI}$1$2$3${PDI}`) : text;
}
