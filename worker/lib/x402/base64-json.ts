/**
 * @module
 * The x402 headers' encoding: base64 of the UTF-8 JSON. Runs in workerd, browsers and Node
 * (`btoa`/`atob` and `TextEncoder`, no `Buffer`).
 */

/**
 * Encodes a value as base64 of its UTF-8 JSON.
 *
 * @example
 * encodeBase64Json({ a: 1 }); // "eyJhIjoxfQ=="
 */
export function encodeBase64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Decodes base64 of UTF-8 JSON; null when it is not (bad base64, bad UTF-8, bad JSON), or
 * when it is longer than `maxLength` characters.
 *
 * @example
 * decodeBase64Json("eyJhIjoxfQ=="); // { a: 1 }
 */
export function decodeBase64Json(text: string, maxLength = 16_384): unknown {
  if (text.length > maxLength || !/^[A-Za-z0-9+/]*={0,2}$/.test(text.trim())) return null;
  try {
    const binary = atob(text.trim());
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}
