/**
 * @module
 * Query strings of the merchant list routes: only set values are sent, arrays (several states)
 * are comma-joined, `Date`s become ISO 8601 instants.
 */

/** A query value the client accepts. */
export type QueryValue = string | number | Date | readonly string[] | undefined;

/**
 * @example
 * toQuery({ state: ["paid", "refunded"], limit: 10 }); // "?state=paid%2Crefunded&limit=10"
 */
export function toQuery(query: Readonly<Record<string, QueryValue>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (value instanceof Date) params.set(name, value.toISOString());
    else if (Array.isArray(value)) params.set(name, value.join(","));
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
