/**
 * @module
 * The lists' opaque cursors: a position in a newest-first order (`createdAt` desc, then a
 * unique key desc), base64url-encoded so clients treat it as a token, decoded with checks so a
 * forged or truncated cursor is a clear 400, never a query error.
 */

/** A position: the last row of the previous page. */
export interface PagePosition {
  createdAt: string;
  key: string;
}

const b64url = (s: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(s)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/**
 * The cursor after `position`.
 *
 * @example
 * encodeCursor({ createdAt: "2026-01-01T00:00:00.000Z", key: "1001" }); // "WyIyMDI2…"
 */
export function encodeCursor(position: PagePosition): string {
  return b64url(JSON.stringify([position.createdAt, position.key]));
}

/**
 * The position a cursor names, or null when it is not one of ours.
 *
 * @example
 * decodeCursor(encodeCursor(p)); // p
 * decodeCursor("garbage"); // null
 */
export function decodeCursor(cursor: string): PagePosition | null {
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
    const value: unknown = JSON.parse(text);
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      !Number.isNaN(Date.parse(value[0])) &&
      value[1].length <= 128
    ) {
      return { createdAt: value[0], key: value[1] };
    }
  } catch {
    // not ours
  }
  return null;
}
