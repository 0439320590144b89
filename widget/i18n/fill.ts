/**
 * @module
 * Placeholders: `{name}` in a message becomes `values.name` (an unknown name becomes nothing,
 * never the raw `{name}`: a shopper never reads template syntax).
 */

/**
 * A message with its placeholders filled.
 *
 * @example
 * fill("Expires in {time}", { time: "14:05" }) // "Expires in 14:05"
 */
export const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "");
