/**
 * @module
 * Exact JSON numbers in both directions, so an amount is never a float at any point.
 *
 * - In: `parseExactJson` turns every JSON number into a `JsonNumber` holding its exact
 *   **source text** (the `JSON.parse` source-text-access reviver context, available in
 *   workerd), so `0.123456789012345678901234` arrives as that text, not as a rounded double.
 *   The wrapper keeps numbers apart from strings: `12.5` and `"12.5"` parse differently, so a
 *   schema can insist on a JSON number (amounts, counts) or a JSON string (text). Normalise
 *   the source with `toDecimal` where a schema expects an amount.
 * - Out: `exactJsonNumber` wraps a decimal string in `JSON.rawJSON`, so `JSON.stringify`
 *   writes the numeral as given (`{"amount":49.9}`), again without a double in between.
 *
 * The ES2023 lib in tsconfig declares neither feature, hence the local typings below (kept
 * here rather than as a global augmentation, so nothing else starts relying on them by accident).
 */
import { toDecimal } from "./canonical.ts";

/** The reviver context of JSON.parse source text access (TC39 stage 4, ES2025). */
interface ReviverContext {
  source?: string;
}

/** An opaque `JSON.rawJSON` result: JSON.stringify writes its text verbatim. */
export interface RawJsonNumber {
  readonly rawJSON: string;
}

interface JsonWithSourceAccess {
  parse(
    text: string,
    reviver: (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown,
  ): unknown;
  rawJSON?: (text: string) => RawJsonNumber;
}

const json = JSON as unknown as JsonWithSourceAccess;

/**
 * A JSON number as `parseExactJson` returns it: the numeral's exact source text, in a frozen
 * wrapper so it can never be mistaken for a JSON string.
 * @example (parseExactJson("1e-7") as JsonNumber).source; // "1e-7"
 */
export class JsonNumber {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
    Object.freeze(this);
  }
}

/**
 * Parses JSON text; every number becomes a `JsonNumber` with its exact source text, every
 * string stays a string. Throws `SyntaxError` on invalid JSON, and `Error` if the runtime
 * lacks source text access (never falls back to floats).
 *
 * @example
 * parseExactJson('{"amount":0.123456789012345678901234,"n":1e-7,"s":"2"}');
 * // { amount: JsonNumber("0.123456789012345678901234"), n: JsonNumber("1e-7"), s: "2" }
 */
export function parseExactJson(text: string): unknown {
  return json.parse(text, (_key, value, context) => {
    if (typeof value !== "number") return value;
    if (typeof context?.source !== "string") {
      throw new Error("JSON.parse source text access is unavailable: refusing to read floats");
    }
    return new JsonNumber(context.source);
  });
}

/**
 * A value that `JSON.stringify` writes as the exact numeral of `decimal`, in canonical form
 * (`"49.90"` is written `49.9`, `"1e-7"` as `0.0000001`). Throws `TypeError` on non-numeric text.
 *
 * @example
 * JSON.stringify({ amount: exactJsonNumber("49.90") }); // '{"amount":49.9}'
 * JSON.stringify({ v: exactJsonNumber("0.123456789012345678901234") });
 * // '{"v":0.123456789012345678901234}'
 */
export function exactJsonNumber(decimal: string): RawJsonNumber {
  const canonical = toDecimal(decimal);
  if (typeof json.rawJSON !== "function") {
    throw new Error("JSON.rawJSON is unavailable: refusing to write amounts as floats");
  }
  return json.rawJSON(canonical);
}
